package bridge

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/prices"
)

// Usage is what the API calls in one stretch of a transcript were billed, and the context the last of
// them held: a harness's TurnUsage reads it with the reader its sessions are counted by.
type Usage struct {
	Model       string
	Calls       int
	Input       int64 // input not read from cache
	Output      int64
	CacheRead   int64
	CacheCreate int64
	// Context is the tokens in the window after the newest call (its input, cached or not, plus its
	// output): how full the window is now. 0 when no call was read.
	Context int64
}

// Add counts one more call, the newest, of model ("" when its log does not say) billed u.
func (s *Usage) Add(model string, u prices.Usage) {
	s.Calls++
	s.Input += u.Input
	s.Output += u.Output
	s.CacheRead += u.CacheRead
	s.CacheCreate += u.CacheWrite5m + u.CacheWrite1h
	if model != "" {
		s.Model = model
	}
	s.Context = u.Prompt() + u.Output
}

// More counts what a call counted before as held was billed since: a line of it read later (a response's
// next content block) shows u. It is no new call.
func (s *Usage) More(model string, u, held prices.Usage) {
	s.Input += u.Input - held.Input
	s.Output += u.Output - held.Output
	s.CacheRead += u.CacheRead - held.CacheRead
	s.CacheCreate += u.CacheWrite5m + u.CacheWrite1h - held.CacheWrite5m - held.CacheWrite1h
	if model != "" {
		s.Model = model
	}
	s.Context = u.Prompt() + u.Output
}

// Empty reports whether the stretch read billed nothing: no call, and nothing more for a call counted before.
func (s Usage) Empty() bool {
	return s.Calls == 0 && s.Input == 0 && s.Output == 0 && s.CacheRead == 0 && s.CacheCreate == 0
}

// Cursor is where the hooks' reading of a session's log stopped: the offset after the last whole line
// read, and the newest call read before it. A harness can write a response over several lines, not all
// at once (Claude Code: one per content block), so a read from Off counts a line of Last only for what
// it adds to what Last was counted as.
type Cursor struct {
	Off  int64
	Last Call // Key "" when no call was read
}

// Call is one API call as a Cursor keeps it: its key in its harness's log (agentlog.Call.Key), its model
// and what it was counted as billed.
type Call struct {
	Key, Model string
	Usage      prices.Usage
}

// Size is a file's length now, 0 when it is no regular file.
func Size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// ModelWindow is a model's context window in tokens, for a session whose harness does not say.
func ModelWindow(model string) int64 {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "[1m]"), strings.HasPrefix(m, "claude-opus-5-5"): // observed: 1M in Claude Code 2.1.328
		return 1_000_000
	case strings.HasPrefix(m, "gpt-"):
		return 272_000
	}
	return 200_000
}

// StartedAt is when a transcript's session began (Unix ms): the first timestamp in its opening lines.
func StartedAt(path string) (int64, bool) {
	head, err := safefile.Head(path, 64<<10)
	if err != nil {
		return 0, false
	}
	for _, l := range bytes.Split(head, []byte("\n")) {
		var line struct {
			Timestamp string `json:"timestamp"`
		}
		if json.Unmarshal(l, &line) != nil || line.Timestamp == "" {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, line.Timestamp); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}
