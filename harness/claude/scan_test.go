package claude

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// A --fork-session transcript copies its parent's history, message ids included: the copied calls count
// once, in the parent, and the fork keeps only its own.
func TestScanForkCountedOnce(t *testing.T) {
	dir, parent, fork := writeFork(t)
	files, _ := Harness{}.Discover([]string{dir})
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	byID := map[string]agentlog.Record{}
	for _, r := range recs {
		byID[r.SessionID] = r
	}
	if got := byID[parent].Calls; got != 13 {
		t.Errorf("parent calls = %d, want its 13", got)
	}
	if got := byID[fork]; got.Calls != 1 || got.Tokens.Input != 10 {
		t.Errorf("fork = %d calls, %+v; want only its own call", got.Calls, got.Tokens)
	}
	if !hasWarning(warn, "session "+fork+" repeats 9 calls of session "+parent) {
		t.Errorf("warnings %q do not say the fork repeats its parent", warn)
	}

	// A fork saverd started itself (its forks log names it) is no session: its own call is the parent's
	// judge spend, and its copy of the parent's history is no news (no warning). Its transcript is what
	// counts, not the tokens its line records.
	logged := &agentlog.Tokens{Input: 999}
	recs, warn = agentlog.Scan(context.Background(), files, agentlog.ScanOptions{Forks: map[string]agentlog.ForkRecord{fork: {SessionID: fork, Parent: parent, Tokens: logged}}})
	if len(recs) != 1 || recs[0].SessionID != parent || recs[0].Calls != 13 {
		t.Fatalf("records %+v, want the parent alone", recs)
	}
	// 10 input and 1 output at claude-opus-5-5's $4 and $20 a million.
	if j := recs[0].Judge; j == nil || j.Forks != 1 || j.Calls != 1 || j.Tokens.Input != 10 || j.Cost == nil || *j.Cost != 0.00006 {
		t.Errorf("judge spend %+v, want the fork's one call", j)
	}
	if hasWarning(warn, "repeats") {
		t.Errorf("warnings %q: a fork saverd ran is said to repeat its parent", warn)
	}
	_, warn = agentlog.Scan(context.Background(), files[:1], agentlog.ScanOptions{Forks: map[string]agentlog.ForkRecord{parent: {SessionID: parent, Parent: "gone"}}})
	if !hasWarning(warn, "fork "+parent+" of session gone: the session is not among the logs read") {
		t.Errorf("warnings %q, want the orphan fork named", warn)
	}
}

// TestScanLoggedForks: a fork no log of its own holds (codex exec --ephemeral) is its parent's judge
// spend from the tokens its forks-log line records, priced at its model's price when it ran; one of a
// model with no price makes the sum null; one of a parent not read is a warning.
func TestScanLoggedForks(t *testing.T) {
	dir, parent, _ := writeFork(t)
	files, _ := Harness{}.Discover([]string{dir})
	files = files[:1] // the parent alone
	if !strings.Contains(files[0].Path, parent) {
		t.Fatalf("files %v", files)
	}
	judge := func(forks ...agentlog.ForkRecord) (*agentlog.ForkSpend, []string) {
		m := map[string]agentlog.ForkRecord{}
		for _, f := range forks {
			m[f.SessionID] = f
		}
		recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{Forks: m})
		if len(recs) != 1 {
			t.Fatalf("records %+v", recs)
		}
		return recs[0].Judge, warn
	}
	// gpt-5.5: $5 input, $0.50 cached, $30 output a million.
	a := agentlog.ForkRecord{SessionID: "t1", Parent: parent, Harness: "codex", Purpose: "judge", At: "2026-12-01T20:00:00Z", Model: "gpt-5.5",
		Tokens: &agentlog.Tokens{Input: 600, CacheRead: 5500, Output: 100}}
	b := agentlog.ForkRecord{SessionID: "t2", Parent: parent, Harness: "codex", Purpose: "process", At: "2026-12-01T20:05:00Z", Model: "gpt-5.5",
		Tokens: &agentlog.Tokens{Input: 1000, Output: 10}}
	j, _ := judge(a, b)
	// 600×5 + 5500×0.5 + 100×30 = 8750; 1000×5 + 10×30 = 5300: $0.01405.
	if j == nil || j.Forks != 2 || j.Calls != 0 || j.Tokens != (agentlog.Tokens{Input: 1600, CacheRead: 5500, Output: 110}) || j.Cost == nil || *j.Cost != 0.01405 {
		t.Fatalf("judge spend %+v", j)
	}
	b.Model = "local-llm"
	if j, _ := judge(a, b); j == nil || j.Cost != nil || j.Forks != 2 {
		t.Fatalf("a fork with no price: judge spend %+v, want cost null", j)
	}
	old := agentlog.ForkRecord{SessionID: "t3", Parent: parent, At: "2026-12-01T20:00:00Z", Model: "gpt-5.5"}
	if j, _ := judge(old); j != nil {
		t.Fatalf("a line with no tokens and no log: judge spend %+v, want none", j)
	}
	orphan := agentlog.ForkRecord{SessionID: "t4", Parent: "gone", At: "2026-12-01T20:00:00Z", Model: "gpt-5.5", Tokens: &agentlog.Tokens{Input: 1}}
	if _, warn := judge(orphan); !hasWarning(warn, "fork t4 of session gone: the session is not among the logs read") {
		t.Fatalf("warnings %q", warn)
	}
}

// writeFork writes the calc fixture and a --fork-session copy of its first turn (agentlogtest.WriteFork).
func writeFork(t *testing.T) (dir, parent, fork string) {
	t.Helper()
	dir = t.TempDir()
	parent, fork, err := agentlogtest.WriteFork(dir, filepath.Join(claudeProjects, "-home-dev-src-calc", "c30d052a-2836-49f8-a652-5038e728a894.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, parent, fork
}

// TestScanFindsSubagents: Scan looks for a session's subagents only where Discover saw something named
// like the session (a directory, or a link to one), and reads every session as ReadSession does.
func TestScanFindsSubagents(t *testing.T) {
	demo := filepath.Join(claudeProjects, "-home-dev-src-demo")
	withAgent := "13c0eb32-b32a-4091-966d-1055a1ec77df"
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "p")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile := func(src, dst string) {
		t.Helper()
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The session with a subagent, its directory a symbolic link; the other sessions plain.
	copyFile(filepath.Join(demo, withAgent+".jsonl"), filepath.Join(proj, withAgent+".jsonl"))
	abs, err := filepath.Abs(filepath.Join(demo, withAgent))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(proj, withAgent)); err != nil {
		t.Fatal(err)
	}
	copyFile(filepath.Join(demo, "04f0f6ba-c937-4e53-aa5b-13778f5eb2f2.jsonl"), filepath.Join(proj, "04f0f6ba-c937-4e53-aa5b-13778f5eb2f2.jsonl"))
	for _, dirs := range [][]string{{"testdata"}, {dir}} {
		files, _ := Harness{}.Discover(dirs)
		recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
		agents := 0
		for _, r := range recs {
			if r.Harness != string(harness.ClaudeCode) {
				continue
			}
			want, err := ReadSession(r.Files[0], agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Files, want.Files) || r.Calls != want.Calls || r.Tokens != want.Tokens {
				t.Errorf("%s: Scan read %q (%d calls, %+v), ReadSession %q (%d, %+v)",
					r.SessionID, r.Files, r.Calls, r.Tokens, want.Files, want.Calls, want.Tokens)
			}
			if len(r.Files) > 1 {
				agents++
			}
		}
		if agents != 1 {
			t.Errorf("%v: %d sessions read with subagents, want 1", dirs, agents)
		}
	}
}
