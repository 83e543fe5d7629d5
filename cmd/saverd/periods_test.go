package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/agentlogtest"
)

// history writes Claude Code sessions over two weeks and two months into a config directory of their own:
// two sessions on one Friday six hours apart (two 5-hour windows), one that starts late on a Sunday in UTC
// (Monday in Tokyo: another ISO week there), one of a model with no price, and a burst on 3 December that
// a --now of 13:30 that day finds in its open window.
func history(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	use := agentlogtest.Call{Input: 1000, Output: 200, CacheRead: 20000, CacheWrite: 3000, Tools: []string{"Bash"}}
	for _, s := range []agentlogtest.Session{
		{ID: "fri-morning", Cwd: "/home/dev/src/shop", Model: "claude-opus-5-5", Calls: agentlogtest.Every(at("2026-11-27T09:10:00Z"), 30*time.Minute, 4, use)},
		{ID: "fri-afternoon", Cwd: "/home/dev/src/shop", Model: "claude-opus-5-5", Calls: agentlogtest.Every(at("2026-11-27T15:30:00Z"), 20*time.Minute, 3, use)},
		{ID: "sun-late", Cwd: "/home/dev/src/calc", Model: "claude-sonnet-5", Calls: agentlogtest.Every(at("2026-11-29T23:30:00Z"), 15*time.Minute, 4, use)},
		{ID: "tue-unpriced", Cwd: "/home/dev/src/calc", Model: "claude-mystery-1", Calls: agentlogtest.Every(at("2026-12-01T10:05:00Z"), time.Minute, 2, use)},
		{ID: "thu-burst", Cwd: "/home/dev/src/shop", Model: "claude-opus-5-5", Calls: agentlogtest.Every(at("2026-12-03T12:00:00Z"), 10*time.Minute, 6, use)},
	} {
		if _, err := agentlogtest.WriteClaude(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSessionsByPeriod: weeks, months, a zone and a span, each against its golden table or CSV.
func TestSessionsByPeriod(t *testing.T) {
	claude := history(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"by-week.golden", []string{"--by", "week", "--format", "table"}},
		{"by-week-tokyo.golden", []string{"--by", "week", "--tz", "Asia/Tokyo", "--format", "table"}},
		{"by-day-los-angeles.golden", []string{"--by", "day", "--tz", "America/Los_Angeles", "--format", "csv"}},
		{"by-month.golden", []string{"--by", "month", "--format", "csv"}},
		{"by-harness.golden", []string{"--by", "harness", "--format", "table"}},
		{"since-until.golden", []string{"--since", "2026-11-28", "--until", "20261201", "--format", "csv"}},
		{"until-tokyo.golden", []string{"--until", "2026-11-29", "--tz", "Asia/Tokyo", "--format", "table"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runBinary(t, append([]string{"sessions", "--claude-dir", claude}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, "periods/sessions-"+tc.name, []byte(out))
		})
	}
}

// TestBlocks: the windows of both harnesses, the open one's pace at a fixed now, in two zones.
func TestBlocks(t *testing.T) {
	claude := history(t)
	dirs := []string{"--claude-dir", claude, "--codex-dir", fixtureCodex, "--now", "2026-12-03T13:30:00Z"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"blocks.golden", []string{"--format", "table"}},
		{"blocks-los-angeles.golden", []string{"--format", "table", "--tz", "America/Los_Angeles"}},
		{"blocks-active.json.golden", []string{"--format", "json", "--active"}},
		{"blocks-codex-since.golden", []string{"--format", "table", "--harness", "codex", "--since", "2026-12-01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runBinary(t, append(append([]string{"blocks"}, dirs...), tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, "periods/"+tc.name, []byte(out))
		})
	}
}

// TestGroupingsShareFieldNames: every --by grouping, and every 5-hour window, writes a group under the
// same JSON names, so one query reads any of them.
func TestGroupingsShareFieldNames(t *testing.T) {
	claude := history(t)
	names := func(obj map[string]json.RawMessage) []string {
		var out []string
		for k := range obj {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	var want []string
	for _, by := range []string{"day", "week", "month", "model", "project", "harness"} {
		code, out, errOut := runBinary(t, "sessions", "--claude-dir", claude, "--format", "json", "--by", by)
		if code != 0 {
			t.Fatalf("--by %s: exit %d: %s", by, code, errOut)
		}
		var rep struct {
			By []map[string]json.RawMessage `json:"by"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.By) == 0 {
			t.Fatalf("--by %s: %v\n%s", by, err, out)
		}
		for _, g := range rep.By {
			delete(g, "unpriced_models") // only where a model has no price
			if want == nil {
				want = names(g)
			}
			if got := names(g); !slices.Equal(got, want) {
				t.Errorf("--by %s writes %v, --by day %v", by, got, want)
			}
		}
	}
	if !slices.Contains(want, "unpriced_tokens") || !slices.Contains(want, "priced") {
		t.Errorf("a group's names %v lack priced or unpriced_tokens", want)
	}
	code, out, errOut := runBinary(t, "blocks", "--claude-dir", claude, "--format", "json")
	if code != 0 {
		t.Fatalf("blocks: exit %d: %s", code, errOut)
	}
	var rep struct {
		Blocks []map[string]json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Blocks) == 0 {
		t.Fatalf("blocks: %v\n%s", err, out)
	}
	for _, name := range want {
		if _, ok := rep.Blocks[0][name]; !ok {
			t.Errorf("a block lacks the group's %q: %s", name, strings.Join(names(rep.Blocks[0]), ","))
		}
	}
}
