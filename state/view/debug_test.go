package view

import (
	"strings"
	"testing"

	goldenfile "github.com/saverd/saverd/internal/golden"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, name, string(got))
}

func TestDebugDumpEmpty(t *testing.T) {
	// ContextSaver's dump of a fresh session, word for word: a share of nothing is `-`, not a figure.
	want := strings.Join([]string{
		"ContextSaver · turn 0 · seq 0 · rows 0 · turns 0 · patterns 0",
		"rows (none)",
		"runs 0 · loops 0 · active 0",
		"time sinks: -",
		"context sinks: -",
		"cards 0",
		"notes 0 · standing 0 · written 0",
		"judge runs 0 · spent 0 tokens (- of the session) · backoff 1 · running false · lastAt 0 tokens / turn 0 / row 0 / 0ms · error - · focus -",
		"judge time: -",
		"judge context: -",
		"process runs 0 · spent 0 tokens · backoff 1 · running false · lastAt turn 0 / row 0 / 0ms · error - · asks 0 · pace 0",
		"load check: not armed · not yet reported",
		"usage -% · - / 200000 tokens · compactAt - · toCompaction - · turnsLeft - · session 0 new",
		"overhead -",
		"compactions none",
		"pane closed · autoOpened false · columns - · expanded - · steering -",
		"saved 0s · ~0% · 0 chars",
	}, "\n")
	if got := DebugDump(state.New("/w", 200_000), false); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDebugDumpGolden(t *testing.T) {
	golden(t, "full_session_debug.txt", []byte(DebugDump(statetest.FullSession(t), true)+"\n"))
	golden(t, "demo_debug.txt", []byte(DebugDump(statetest.DemoSession(), false)+"\n"))
}

func TestDebugDumpNeverOverflows(t *testing.T) {
	s := statetest.FullSession(t)
	var dropped []string
	for range 10 {
		dropped = append(dropped, "f: dropped\nover two lines")
	}
	s.Judge.Last = &state.JudgeRun{Returned: 10, Dropped: dropped, Usage: &state.JudgeUsage{}}
	s.Process.Last = &state.JudgeRun{Returned: 10, Dropped: dropped, Usage: &state.JudgeUsage{}}
	s.Judge.Error = new("fork failed:\nline two\nline three")
	s.Judge.Focus = new(strings.Repeat("😀", 100) + "\nnext")
	dump := DebugDump(s, false)
	lines := strings.Split(dump, "\n")
	if len(lines) != state.DebugMaxLines {
		t.Fatalf("%d lines, want %d", len(lines), state.DebugMaxLines)
	}
	if !strings.Contains(dump, "  … 34 more patterns") || !strings.Contains(dump, "judge last: 10 returned · 0 kept · 10 dropped") {
		t.Fatalf("dump:\n%s", dump)
	}
	// The focus is quoted on one line, cut to 120 units on a whole character.
	if !strings.Contains(dump, `focus "`+strings.Repeat("😀", 60)+`"`) {
		t.Fatalf("dump:\n%s", dump)
	}
}

func TestProcessAndUsageLines(t *testing.T) {
	s := state.New("/w", 1)
	if ProcessLine(s) != nil {
		t.Fatal("no line before the first run")
	}
	s.Process.Runs, s.Process.Spent = 1, 8_700
	if got := *ProcessLine(s); got != "process 1 run · 8.7k tokens" {
		t.Fatalf("%q", got)
	}
	u := state.JudgeUsage{Input: 1, Output: 2, CacheRead: 3, CacheCreate: 4}
	if got := UsageLine(u, "judge"); got != "judge usage: in 1 · out 2 · cache read 3 · cache create 4" {
		t.Fatalf("%q", got)
	}
	if got := UsageLine(u, "process"); !strings.HasPrefix(got, "process usage: in 1") {
		t.Fatalf("%q", got)
	}
}

func TestLoadCheckLine(t *testing.T) {
	s := state.New("/w", 1)
	for _, tc := range []struct {
		set   func()
		spoke bool
		want  string
	}{
		{func() {}, false, "load check: not armed · not yet reported"},
		{func() { s.PendingCheck = true }, true, "load check: retrying · reported"},
		{func() { s.PendingCheck = false; s.Judge.Runs = 1 }, false, "load check: answered · not yet reported"},
	} {
		tc.set()
		if got := loadCheckLine(s, tc.spoke); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
