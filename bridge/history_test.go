package bridge_test

import (
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/state/intake"
)

// TestHistoryAdoptsEveryFinishedCall: a hook's transcript, read by its harness within a hook's bounds as
// the daemon adopts it on a join, gives back every call the hooks saw.
func TestHistoryAdoptsEveryFinishedCall(t *testing.T) {
	opt := agentlog.Options{Limits: bridge.Limits()}
	tr, err := claude.Harness{}.History("testdata/transcript-two-turns.jsonl", "", opt)
	if err != nil {
		t.Fatal(err)
	}
	rows := intake.AdoptRows(tr.Messages)
	// Turn one ran 8 tools (one failed), turn two 3: the same 11 calls the hooks saw.
	if len(rows) != 11 {
		t.Fatalf("adopted %d rows, want 11", len(rows))
	}
	if rows[0].Tool != "Bash" || rows[0].Turn != 1 || rows[len(rows)-1].Turn != 2 {
		t.Fatalf("rows %+v … %+v", rows[0], rows[len(rows)-1])
	}
	cx, err := codex.Harness{}.History("testdata/codex-rollout.jsonl", "", opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(intake.AdoptRows(cx.Messages)); n != 4 {
		t.Fatalf("codex: adopted %d rows, want 4 (three commands and a patch)", n)
	}
}
