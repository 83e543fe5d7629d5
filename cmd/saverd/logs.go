package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/prices"
)

// logFlags are the flags that say where the agents' logs and the prices are, shared by `saverd sessions`,
// `saverd impact` and `saverd audit`.
type logFlags struct {
	claudeDirs stringList
	codexDirs  stringList
	prices     string
}

func (l *logFlags) register(fs *flag.FlagSet) {
	fs.Var(&l.claudeDirs, "claude-dir", "")
	fs.Var(&l.codexDirs, "codex-dir", "")
	fs.StringVar(&l.prices, "prices", "", "")
}

// sources: the directories given, else the defaults (agentlog.Named).
func (l *logFlags) sources() agentlog.Sources { return agentlog.Named(l.claudeDirs, l.codexDirs) }

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
	files, warn := agentlog.Discover(l.sources())
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
	local := agentlog.Local{Sources: l.sources(), Prices: tab, Files: bar.files, Done: bar.done}
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
	for _, d := range append(append([]string(nil), l.claudeDirs...), l.codexDirs...) {
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
