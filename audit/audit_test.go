package audit

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/agentlogtest"
	"github.com/saverd/saverd/logset"
)

// TestTargetsAndRun: a session is found by its file, by its id under the logs named, and as the newest
// written; its audit counts its turn and calls as the log holds them, and writes as text and JSON.
func TestTargetsAndRun(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	path, err := agentlogtest.WriteClaude(dir, agentlogtest.Session{ID: "s-1", Cwd: "/home/dev/src/shop", Model: "claude-opus-5-5",
		Calls: agentlogtest.Every(at, time.Minute, 3, agentlogtest.Call{Input: 1000, Output: 200, Tools: []string{"Bash"}})})
	if err != nil {
		t.Fatal(err)
	}
	logs := logset.Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {dir}}}
	for _, q := range []Query{{Name: path}, {Name: "s-1"}, {Last: true}, {Since: at.Add(-time.Hour)}} {
		targets, err := Targets(t.Context(), logs, q)
		if err != nil || len(targets) != 1 || filepath.Base(targets[0].path) != "s-1.jsonl" {
			t.Fatalf("%+v: %+v %v", q, targets, err)
		}
		a, err := Run(t.Context(), Options{Logs: logs, JudgeTimeout: time.Minute}, targets[0])
		if err != nil || a.SessionID != "s-1" || a.Turns != 1 || a.Calls != 3 || a.Model != "claude-opus-5-5" {
			t.Fatalf("%+v: session %q, %d turns, %d calls, model %q, %v", q, a.SessionID, a.Turns, a.Calls, a.Model, err)
		}
		var text, js bytes.Buffer
		if err := Write(&text, []Audit{a}, "text", 100); err != nil || !strings.HasPrefix(text.String(), "session s-1 · claude-code · claude-opus-5-5") {
			t.Errorf("text: %v\n%s", err, text.String())
		}
		var out struct{ Audits []map[string]any }
		if err := Write(&js, []Audit{a}, "json", 100); err != nil || json.Unmarshal(js.Bytes(), &out) != nil || len(out.Audits) != 1 {
			t.Errorf("json: %v\n%s", err, js.String())
		}
	}
	for _, q := range []Query{{Name: "nope"}, {Since: time.Now().Add(time.Hour)}} { // a transcript is dated by its last write
		if targets, err := Targets(t.Context(), logs, q); err == nil {
			t.Errorf("%+v found %+v", q, targets)
		}
	}
	if _, err := Targets(t.Context(), logset.Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {t.TempDir()}}}, Query{Last: true}); err == nil || !strings.Contains(err.Error(), "no session logs found") {
		t.Errorf("no logs: %v", err)
	}
}
