package codex

import (
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
)

// TestTurnUsage: one token record per response, input less its cached part, each of its turn's model.
func TestTurnUsage(t *testing.T) {
	cx, _, err := Harness{}.TurnUsage("../../bridge/testdata/codex-rollout.jsonl", bridge.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if cx.Calls != 4 || cx.Input != 2200 || cx.CacheRead != 2400 || cx.Output != 260 || cx.Model != "gpt-5.5" {
		t.Fatalf("codex usage = %+v", cx)
	}
}

// TestTurnUsageIsTheSessionsCount: a turn's usage is what the session's record counts for the same calls
// on every fixture rollout: one reader counts a call everywhere.
func TestTurnUsageIsTheSessionsCount(t *testing.T) {
	paths, _ := filepath.Glob("testdata/sessions/*/*/*/*.jsonl")
	more, _ := filepath.Glob("testdata/versions/*/sessions/*/*/*/*.jsonl")
	paths = append(append(paths, more...), "../../bridge/testdata/codex-rollout.jsonl")
	if len(paths) != 8 {
		t.Fatalf("%d rollouts, want the fixtures' 8: %q", len(paths), paths)
	}
	for _, p := range paths {
		u, _, err := Harness{}.TurnUsage(p, bridge.Cursor{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ReadRollout(p, agentlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if u.Calls != rec.Calls || u.Input != rec.Tokens.Input || u.Output != rec.Tokens.Output ||
			u.CacheRead != rec.Tokens.CacheRead || u.CacheCreate != rec.Tokens.CacheWrite {
			t.Errorf("%s: the turn's usage %+v, the session's record %d calls %+v", p, u, rec.Calls, rec.Tokens)
		}
	}
}
