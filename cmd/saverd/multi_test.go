package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestManySessionsOneDaemon: three sessions share one daemon; their forks are answered out of order and
// late, while the other sessions keep sending hooks. Each session gets its own card, and no reply or
// toast crosses over.
func TestManySessionsOneDaemon(t *testing.T) {
	var mu sync.Mutex
	delay := map[string]time.Duration{"s1": 300 * time.Millisecond, "s2": 10 * time.Millisecond, "s3": 150 * time.Millisecond}
	c := startDaemon(t, false, func(params json.RawMessage) (any, string) {
		var p struct{ SessionID string }
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		d := delay[p.SessionID]
		mu.Unlock()
		time.Sleep(d)
		return judgeReply(params)
	}, "--store", t.TempDir())
	c.ok("initialize", map[string]any{"capabilities": map[string]any{"fork": true}}, nil)
	sessions := []string{"s1", "s2", "s3"}
	cwds := map[string]string{}
	for _, s := range sessions {
		cwds[s] = t.TempDir()
		c.ok("session.start", map[string]any{"sessionId": s, "cwd": cwds[s], "at": 1_000, "usage": map[string]any{"window": 200_000}}, nil)
		c.ok("turn.start", map[string]any{"sessionId": s, "at": 2_000}, nil)
	}
	// Interleave the sessions' tool calls, then ask every session for a check at once.
	for i := range 12 {
		for _, s := range sessions {
			toolCall(c, s, int64(3_000+i*1_000), i+1, dozen(cwds[s])[i])
		}
	}
	for _, s := range sessions {
		var text struct{ Text string }
		c.ok("command.run", map[string]any{"sessionId": s, "command": "saver", "args": "check"}, &text)
		if text.Text != "ContextSaver: checking this session for waste…" {
			t.Fatalf("%s check = %q", s, text.Text)
		}
	}
	// Meanwhile the sessions go on.
	for _, s := range sessions {
		toolCall(c, s, 40_000, 13, dozen(cwds[s])[1])
	}
	c.waitFor("three answered checks", func() bool {
		n := 0
		for _, tt := range c.toasts() {
			if tt == "ContextSaver: 1 new waster" {
				n++
			}
		}
		return n == 3
	})
	c.mu.Lock()
	forks := append([]json.RawMessage(nil), c.forks...)
	c.mu.Unlock()
	seen := map[string]int{}
	for _, f := range forks {
		var p struct{ SessionID, Prompt string }
		_ = json.Unmarshal(f, &p)
		seen[p.SessionID]++
		if !strings.Contains(p.Prompt, "r7 | Bash | test:bun test") {
			t.Errorf("%s's prompt lacks its own row r7", p.SessionID)
		}
	}
	for _, s := range sessions {
		if seen[s] != 1 {
			t.Errorf("forks for %s = %d, want 1 (forks: %v)", s, seen[s], seen)
		}
		var pane paneView
		c.ok("view.pane", map[string]any{"sessionId": s}, &pane)
		if len(pane.Wasters) != 1 || pane.Wasters[0].PatternID != "execution:full-suite" {
			t.Errorf("%s wasters = %+v", s, pane.Wasters)
		}
		var st struct {
			Seq  int
			Rows []struct{ ID string }
		}
		c.ok("debug.state", map[string]any{"sessionId": s}, &st)
		if st.Seq != 13 {
			t.Errorf("%s seq = %d, want 13", s, st.Seq)
		}
		for _, r := range st.Rows {
			if !strings.HasPrefix(r.ID, fmt.Sprintf("toolu_%s_", s)) {
				t.Errorf("%s holds row %s of another session", s, r.ID)
			}
		}
	}
	assertPure(t, c)
}
