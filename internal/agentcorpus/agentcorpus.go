// Package agentcorpus writes a corpus of the five agents' logs into a home directory, each in its
// client's own layout and where the client keeps it (Claude Code's ~/.claude/projects, Codex's
// ~/.codex/sessions, Gemini CLI's ~/.gemini/tmp, OpenCode's ~/.local/share/opencode/opencode.db, Qwen
// Code's ~/.qwen/projects), for the benchmark that reads it with `saverd sessions` and with ccusage. Each
// API call's tool output is ~6 KB, so bytes are mostly what a real log's are; every call's usage is
// distinct and summed as it is written, so a reader's totals can be checked against the writer's.
package agentcorpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// Totals is what the corpus holds of one harness, in agentlog.Tokens' meanings.
type Totals struct {
	Sessions, Calls int
	Tokens          agentlog.Tokens
	Bytes           int64
}

// shares is each harness's part of the corpus's bytes.
var shares = []struct {
	harness string
	share   float64
	write   func(c *corpus, i int, per int64) error
}{
	{"claude-code", 0.40, (*corpus).claude},
	{"codex", 0.20, (*corpus).codex},
	{"gemini", 0.15, (*corpus).gemini},
	{"qwen-code", 0.15, (*corpus).qwen},
	{"opencode", 0.10, nil}, // one database, written apart
}

// PerSession is the bytes of one session's log.
const PerSession = 400 << 10

// output is a tool's output as a log holds it: ~6 KB of text.
var output = strings.Repeat("line of tool output that the agent read back into its context\n", 100)

type corpus struct {
	home   string
	start  time.Time
	totals map[string]*Totals
}

// Write writes about size bytes of logs under home and returns what each harness's part holds.
func Write(home string, size int64) (map[string]Totals, error) {
	c := &corpus{home: home, start: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), totals: map[string]*Totals{}}
	for _, s := range shares {
		c.totals[s.harness] = &Totals{}
		n := max(1, int(float64(size)*s.share/PerSession))
		if s.write == nil {
			if err := c.opencode(n, PerSession); err != nil {
				return nil, err
			}
			continue
		}
		for i := range n {
			if err := s.write(c, i, PerSession); err != nil {
				return nil, err
			}
		}
	}
	out := map[string]Totals{}
	for h, t := range c.totals {
		out[h] = *t
	}
	return out, nil
}

// at is the time of session i's call j: sessions seven minutes apart, calls a second apart.
func (c *corpus) at(i, j int) time.Time {
	return c.start.Add(time.Duration(i)*7*time.Minute + time.Duration(j)*time.Second)
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// usage is call j's usage: input not cached, cached, output (reasoning in it), distinct per call.
func usage(j int) (input, cached, output int64) {
	return int64(900 + j%200), int64(5000 + j*10), int64(40 + j%30)
}

// file writes one log through a buffered writer and counts its bytes toward the harness.
func (c *corpus) file(harness, path string, write func(w *bufio.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if info, err := f.Stat(); err == nil {
		c.totals[harness].Bytes += info.Size()
	}
	return f.Close()
}

// count adds one call to a harness's totals.
func (c *corpus) count(harness string, t agentlog.Tokens) {
	c.totals[harness].Calls++
	c.totals[harness].Tokens.Add(t)
}

// id is session i's uuid for a harness (its tag keeps the harnesses' ids apart).
func id(tag, i int) string { return fmt.Sprintf("%08x-%04x-4000-8000-%012x", i, tag, i) }

// appendLine appends one line to a file (a running-totals file several sessions share).
func (c *corpus) appendLine(harness, path, line string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	n, err := f.WriteString(line + "\n")
	c.totals[harness].Bytes += int64(n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
