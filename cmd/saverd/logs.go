package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// sources: the directories given, else the defaults. Naming only one harness's directory reads only that
// harness, so a test or a one-off look never mixes in the machine's own logs.
func (l *logFlags) sources() agentlog.Sources {
	src := agentlog.Sources{ClaudeDirs: l.claudeDirs, CodexDirs: l.codexDirs}
	if len(l.claudeDirs) > 0 && len(l.codexDirs) == 0 {
		src.CodexDirs = []string{}
	}
	if len(l.codexDirs) > 0 && len(l.claudeDirs) == 0 {
		src.ClaudeDirs = []string{}
	}
	return src
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
	files, warn := agentlog.Discover(l.sources())
	for _, d := range append(append([]string(nil), l.claudeDirs...), l.codexDirs...) {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			warn = append(warn, fmt.Sprintf("%s is not a directory: no sessions read from it", d))
		}
	}
	forks, w := readForks()
	warn = append(warn, w...)
	opt := agentlog.ScanOptions{Options: agentlog.Options{Prices: tab}, Forks: forks}
	if isTerminal(stderr) && len(files) > 0 {
		var total int64
		for _, f := range files {
			total += f.Size
		}
		bar := progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription(fmt.Sprintf("reading %d session logs", len(files))),
			progressbar.OptionShowBytes(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
		opt.Done = func(n int64) { _ = bar.Add64(n) }
		defer bar.Finish() //nolint:errcheck // the bar is cosmetic
	}
	recs, w := agentlog.Scan(ctx, files, opt)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return recs, append(warn, w...), nil
}

// readForks reads the daemon's forks log (the judge and process forks it ran through a client): fork
// session id → the session it judged. No log is no forks; a bad line is a warning.
func readForks() (map[string]string, []string) {
	dir, err := paths.StateDir()
	if err != nil {
		return nil, nil
	}
	path := filepath.Join(dir, ForksLogName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("forks log %s: %v", path, err)}
	}
	forks := map[string]string{}
	var warn []string
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var f forkRecord
		if err := json.Unmarshal(line, &f); err != nil || f.SessionID == "" || f.Parent == "" {
			warn = append(warn, fmt.Sprintf("%s:%d: not a fork record, skipped", path, i+1))
			continue
		}
		forks[f.SessionID] = f.Parent
	}
	return forks, warn
}
