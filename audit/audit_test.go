package audit

import (
	"bytes"
	"encoding/json"
	"os"
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

// TestLastSkipsSaverdsForks: a judge fork saverd ran (its forks log names it) is written after the session
// it judged, yet it is no session of the person's: --last and --since pass it by; named, it is audited.
func TestLastSkipsSaverdsForks(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	var paths []string
	for _, id := range []string{"parent-1", "fork-1"} {
		p, err := agentlogtest.WriteClaude(dir, agentlogtest.Session{ID: id, Cwd: "/home/dev/src/shop", Model: "claude-opus-5-5",
			Calls: agentlogtest.Every(at, time.Minute, 2, agentlogtest.Call{Input: 1000, Output: 200})})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// The fork written last, as a judge's fork always is.
	if err := os.Chtimes(paths[0], at.Add(time.Hour), at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(paths[1], at.Add(2*time.Hour), at.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	forks := filepath.Join(t.TempDir(), "forks.jsonl")
	line := `{"session_id":"fork-1","parent":"parent-1","harness":"claude-code","purpose":"judge","at":"2026-11-27T11:00:00Z"}` + "\n"
	if err := os.WriteFile(forks, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		forksLog string
		q        Query
		want     []string
	}{
		{forksLog: forks, q: Query{Last: true}, want: []string{"parent-1"}},
		{forksLog: forks, q: Query{Since: at}, want: []string{"parent-1"}},
		{forksLog: forks, q: Query{Name: "fork-1"}, want: []string{"fork-1"}},
		// Without the forks log, a fork is a session like any other (a person's own --fork-session is).
		{forksLog: filepath.Join(t.TempDir(), "none.jsonl"), q: Query{Last: true}, want: []string{"fork-1"}},
	} {
		logs := logset.Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {dir}}, ForksLog: tc.forksLog}
		targets, err := Targets(t.Context(), logs, tc.q)
		var got []string
		for _, tg := range targets {
			got = append(got, tg.session)
		}
		if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%+v with %s: %v %v, want %v", tc.q, filepath.Base(tc.forksLog), got, err, tc.want)
		}
	}
}
