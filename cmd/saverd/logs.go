package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/prices"
)

// logFlags are the flags that say where the agents' logs and the prices are, shared by `saverd sessions`,
// `blocks`, `report`, `impact` and `audit`.
type logFlags struct {
	claudeDirs stringList
	codexDirs  stringList
	prices     string
	// others are the directories named for each harness package's logs (--gemini-dir, …), by harness.
	others map[harness.ID]*stringList
}

// harnesses are the harness packages whose logs the commands read beside Claude Code's and Codex's.
var harnesses = all.Logs()

// logDirsHelp is the help of every harness's directory flag, as the usages list them.
var logDirsHelp = func() string {
	var b strings.Builder
	b.WriteString(`  --claude-dir DIR   Claude Code's config directory (repeatable; default $CLAUDE_CONFIG_DIR, else ~/.claude
                     and ~/.config/claude)
  --codex-dir DIR    Codex's home (repeatable; default $CODEX_HOME, else ~/.codex)
`)
	for _, h := range harnesses {
		fmt.Fprintf(&b, "  %-18s %s\n", "--"+h.DirFlag()+" DIR", h.DirHelp())
	}
	b.WriteString("                     Naming any harness's directory reads only the harnesses named.\n")
	return b.String()
}()

// harnessNames lists the harness ids --harness takes.
func harnessNames() string {
	var ids []string
	for _, id := range harness.IDs() {
		ids = append(ids, string(id))
	}
	return strings.Join(ids, ", ")
}

// parseHarness is a --harness value as the records name it (`qwen` is qwen-code), "" for none.
func parseHarness(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	id, ok := harness.Parse(name)
	if !ok {
		return "", fmt.Errorf("--harness: want one of %s, got %q", harnessNames(), name)
	}
	return string(id), nil
}

func (l *logFlags) register(fs *flag.FlagSet) {
	l.registerDirs(fs)
	fs.StringVar(&l.prices, "prices", "", "")
}

// registerDirs registers the directory flag of every harness.
func (l *logFlags) registerDirs(fs *flag.FlagSet) {
	fs.Var(&l.claudeDirs, "claude-dir", "")
	fs.Var(&l.codexDirs, "codex-dir", "")
	l.others = map[harness.ID]*stringList{}
	for _, h := range harnesses {
		l.others[h.ID()] = &stringList{}
		fs.Var(l.others[h.ID()], h.DirFlag(), "")
	}
}

// named reports whether any harness's directory was named.
func (l *logFlags) named() bool {
	if len(l.claudeDirs) > 0 || len(l.codexDirs) > 0 {
		return true
	}
	for _, d := range l.others {
		if len(*d) > 0 {
			return true
		}
	}
	return false
}

// sources: Claude Code's and Codex's directories given, else the defaults; none of a harness whose
// directory was not named when another's was.
func (l *logFlags) sources() agentlog.Sources {
	if l.named() && len(l.claudeDirs) == 0 && len(l.codexDirs) == 0 {
		return agentlog.Sources{ClaudeDirs: []string{}, CodexDirs: []string{}}
	}
	return agentlog.Named(l.claudeDirs, l.codexDirs)
}

// dirsOf is the directories to read h's logs in: the ones named, else its defaults when no harness's
// directory was named.
func (l *logFlags) dirsOf(h harness.Logs) []string {
	if d := l.others[h.ID()]; d != nil && len(*d) > 0 {
		return *d
	}
	if l.named() {
		return nil
	}
	return h.DefaultDirs()
}

// discover lists every harness's logs: Claude Code's and Codex's, then each harness package's.
func (l *logFlags) discover() ([]agentlog.File, []string) {
	files, warn := agentlog.Discover(l.sources())
	f, w := l.discoverOthers()
	return append(files, f...), append(warn, w...)
}

// discoverOthers lists the harness packages' logs.
func (l *logFlags) discoverOthers() ([]agentlog.File, []string) {
	var (
		files []agentlog.File
		warn  []string
	)
	for _, h := range harnesses {
		f, w := h.Discover(l.dirsOf(h))
		files, warn = append(files, f...), append(warn, w...)
	}
	return files, warn
}

// table is the price table: the embedded one with --prices FILE, else <config dir>/prices.json, applied.
func (l *logFlags) table() (*prices.Table, error) {
	path := l.prices
	if path != "" {
		// Named by the person: a typo must not fall back to the embedded prices without a word.
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("--prices: %w", err)
		}
	}
	if path == "" {
		dir, err := paths.ConfigDir()
		if err != nil {
			return prices.Default(), nil //nolint:nilerr // no config directory: no override to read
		}
		path = filepath.Join(dir, "prices.json")
	}
	return prices.LoadFile(path)
}

// read discovers and reads every session log, with a progress bar on stderr when it is a terminal.
func (l *logFlags) read(ctx context.Context, stderr io.Writer) ([]agentlog.Record, []string, error) {
	tab, err := l.table()
	if err != nil {
		return nil, nil, err
	}
	files, warn := l.discover()
	warn = append(warn, l.dirWarnings()...)
	var forks map[string]agentlog.ForkRecord
	if path, err := paths.ForksLog(); err == nil {
		f, w := agentlog.ReadForks(path)
		forks, warn = f, append(warn, w...)
	}
	bar := newProgress(stderr)
	defer bar.finish()
	bar.files(files)
	recs, w := agentlog.Scan(ctx, files, agentlog.ScanOptions{Options: agentlog.Options{Prices: tab}, Forks: forks, Done: bar.done})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return recs, append(warn, w...), nil
}

// readLocal reads this machine's history as impact's input records: the agents' logs the flags name
// and the daemon's sessions log.
func (l *logFlags) readLocal(ctx context.Context, stderr io.Writer) ([]json.RawMessage, []string, error) {
	tab, err := l.table()
	if err != nil {
		return nil, nil, err
	}
	bar := newProgress(stderr)
	defer bar.finish()
	local := agentlog.Local{Sources: l.sources(), Prices: tab, Files: bar.files, Done: bar.done, Discover: l.discover}
	if path, err := paths.SessionsLog(); err == nil {
		local.SessionsLog = path
	}
	if path, err := paths.ForksLog(); err == nil {
		local.ForksLog = path
	}
	found, warn, err := agentlog.ReadLocal(ctx, local)
	return found, append(l.dirWarnings(), warn...), err
}

// dirWarnings: a directory named by a flag that is none reads nothing, and says so.
func (l *logFlags) dirWarnings() []string {
	var warn []string
	dirs := append(append([]string(nil), l.claudeDirs...), l.codexDirs...)
	for _, h := range harnesses {
		if d := l.others[h.ID()]; d != nil {
			dirs = append(dirs, *d...)
		}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			warn = append(warn, fmt.Sprintf("%s is not a directory: no sessions read from it", d))
		}
	}
	return warn
}

// progress is a progress bar over the logs being read, drawn on stderr only when it is a terminal.
type progress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newProgress(stderr io.Writer) *progress { return &progress{w: stderr} }

// files sets the bar up for the logs about to be read; it runs before any of them is read.
func (p *progress) files(files []agentlog.File) {
	if !isTerminal(p.w) || len(files) == 0 {
		return
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	p.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(fmt.Sprintf("reading %d session logs", len(files))),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())
}

// done moves the bar on by a log's size; the readers call it from their goroutines, which the bar allows.
func (p *progress) done(n int64) {
	if p.bar != nil {
		_ = p.bar.Add64(n)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish() // the bar is cosmetic
	}
}
