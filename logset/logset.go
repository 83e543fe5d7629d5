// Package logset is the set of agents' logs a command reads and the prices it reads them at: the
// directories named for each harness (harness/all lists them), else every harness's defaults, discovered
// into log files and scanned into session records, with a progress bar on a terminal. `saverd sessions`,
// `blocks`, `report`, `impact` and `audit` read through it (their flags fill a Set), and the daemon lists
// the logs of the harnesses whose hooks it does not answer with it for impact.query.
package logset

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/prices"
)

// Set says which logs to read and at what prices: the directories named for each harness (none named:
// every harness at its defaults; some named: only the harnesses named) and the price overrides file.
type Set struct {
	// Dirs are the directories named for each harness's logs (--claude-dir, --gemini-dir, …), by harness.
	Dirs map[harness.ID][]string
	// Prices is the price overrides file; "" reads <config dir>/prices.json when it exists.
	Prices string
	// ForksLog is the log of the forks saverd ran (agentlog.ReadForks); "" reads the state directory's.
	ForksLog string
	// Cache is the file that keeps what was read of each log between runs (agentlog.Cache); "": none.
	Cache string
}

// Harnesses are the harnesses whose logs the commands read, in the order they are listed to a person.
var Harnesses = all.Logs()

// named reports whether any harness's directory was named.
func (l Set) named() bool {
	for _, d := range l.Dirs {
		if len(d) > 0 {
			return true
		}
	}
	return false
}

// DirsOf is the directories to read h's logs in: the ones named, else its defaults when no harness's
// directory was named. Naming one harness's directories reads only the harnesses named, so a test or a
// one-off look never mixes in the machine's own logs of another.
func (l Set) DirsOf(h harness.Logs) []string {
	if d := l.Dirs[h.ID()]; len(d) > 0 {
		return d
	}
	if l.named() {
		return nil
	}
	return h.DefaultDirs()
}

// Discover lists every harness's logs, in the order Harnesses lists them.
func (l Set) Discover() ([]agentlog.File, []string) { return l.discoverOf(Harnesses) }

// DiscoverOthers lists the logs of the harnesses whose hooks the daemon does not answer: what
// impact.query reads beside the live harnesses' logs (session.HistoryLogs.Others).
func (l Set) DiscoverOthers() ([]agentlog.File, []string) {
	var others []harness.Logs
	for _, h := range Harnesses {
		if _, live := h.(harness.Live); !live {
			others = append(others, h)
		}
	}
	return l.discoverOf(others)
}

// discoverOf lists the logs of hs.
func (l Set) discoverOf(hs []harness.Logs) ([]agentlog.File, []string) {
	var (
		files []agentlog.File
		warn  []string
	)
	for _, h := range hs {
		f, w := h.Discover(l.DirsOf(h))
		files, warn = append(files, f...), append(warn, w...)
	}
	return files, warn
}

// Table is the price table: the embedded one with the Prices file, else <config dir>/prices.json, applied.
func (l Set) Table() (*prices.Table, error) {
	path := l.Prices
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

// Forks are the forks saverd ran (judge and process forks), from ForksLog, else the state directory's
// forks log: no session of their own, each its parent's spend. No log is no forks.
func (l Set) Forks() (map[string]agentlog.ForkRecord, []string) {
	path := l.ForksLog
	if path == "" {
		p, err := paths.ForksLog()
		if err != nil {
			return nil, nil //nolint:nilerr // no state directory: saverd never ran a fork here
		}
		path = p
	}
	return agentlog.ReadForks(path)
}

// Read discovers and reads every session log, with a progress bar on stderr when it is a terminal.
func (l Set) Read(ctx context.Context, stderr io.Writer) ([]agentlog.Record, []string, error) {
	tab, err := l.Table()
	if err != nil {
		return nil, nil, err
	}
	files, warn := l.Discover()
	warn = append(warn, l.dirWarnings()...)
	forks, w := l.Forks()
	warn = append(warn, w...)
	bar := newProgress(stderr)
	defer bar.finish()
	bar.files(files)
	cache := l.openCache()
	recs, w := agentlog.Scan(ctx, files, agentlog.ScanOptions{Options: agentlog.Options{Prices: tab}, Forks: forks, Done: bar.done, Cache: cache})
	_ = cache.Save() // a cache that cannot be kept costs the next run its reading, nothing else
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return recs, append(warn, w...), nil
}

// ReadLocal reads this machine's history as impact's input records: the agents' logs the set names
// and the daemon's sessions log.
func (l Set) ReadLocal(ctx context.Context, stderr io.Writer) ([]json.RawMessage, []string, error) {
	tab, err := l.Table()
	if err != nil {
		return nil, nil, err
	}
	bar := newProgress(stderr)
	defer bar.finish()
	local := agentlog.Local{Discover: l.Discover, Prices: tab, Files: bar.files, Done: bar.done, Cache: l.openCache()}
	defer func() { _ = local.Cache.Save() }() // as in Read
	if path, err := paths.SessionsLog(); err == nil {
		local.SessionsLog = path
	}
	if path, err := paths.ForksLog(); err == nil {
		local.ForksLog = path
	}
	found, warn, err := agentlog.ReadLocal(ctx, local)
	return found, append(l.dirWarnings(), warn...), err
}

// openCache is the set's cache of what was read of each log, nil when it keeps none.
func (l Set) openCache() *agentlog.Cache {
	if l.Cache == "" {
		return nil
	}
	return agentlog.OpenCache(l.Cache, time.Now())
}

// dirWarnings: a directory named by a flag that is none reads nothing, and says so.
func (l Set) dirWarnings() []string {
	var warn []string
	var dirs []string
	for _, h := range Harnesses {
		dirs = append(dirs, l.Dirs[h.ID()]...)
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
	if !textout.IsTerminal(p.w) || len(files) == 0 {
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
