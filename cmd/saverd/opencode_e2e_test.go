//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness/opencode/opencodetest"
)

// TestRealOpenCode runs the real OpenCode offline against a scripted API: `opencode run` with a shell
// command and a read, `run --continue` with a shell command, `run --session <id>` repeating it. Then
// `saverd sessions` must equal what the server answered the session's loop by every token kind (its one
// title call, which OpenCode never stores, left out and said to be), OpenCode's own cost must be the
// config's prices over those calls, `saverd audit` must show the three turns, seven calls and four tool
// calls, and the database must be as OpenCode left it.
func TestRealOpenCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real OpenCode")
	}
	r := offlineChat(t, opencodetest.Binary(t), opencodetest.Setup)
	turns := chatTurns(r.proj, "bash", "read", "filePath")
	r.srv.Add(turns[0]...)
	r.client.Must(t, r.ns, "run", "TURN-A run a shell command then read notes.txt")
	r.srv.Add(turns[1]...)
	r.client.Must(t, r.ns, "run", "--continue", "TURN-B count lines")
	var list []struct {
		ID string `json:"id"`
	}
	out := r.client.Must(t, r.ns, "session", "list", "--format", "json").Stdout
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("opencode session list: %v\n%s", err, out)
	}
	id := list[0].ID
	r.srv.Add(turns[2]...)
	r.client.Must(t, r.ns, "run", "--session", id, "TURN-B count lines again")

	log := r.srv.Log()
	calls, billed, helpers := chatBilled(log)
	if calls != 7 || helpers != 1 {
		t.Fatalf("the server answered %d main calls and %d helpers, want 7 and the title's 1", calls, helpers)
	}
	data := filepath.Join(r.home, ".local", "share", "opencode")
	before := dirState(t, data)
	recs, warn := savedSessions(t, "--opencode-dir", data, "--harness", "opencode")
	if len(recs) != 1 || recs[0].SessionID != id {
		t.Fatalf("sessions %+v, want %s alone", recs, id)
	}
	rec := recs[0]
	checkRecord(t, rec, "opencode", calls, billed, chatTools(log))
	if !strings.Contains(rec.Unlogged, "title") || rec.Cwd != r.proj {
		t.Errorf("unlogged %q, cwd %q", rec.Unlogged, rec.Cwd)
	}
	// OpenCode's own figure: each call at the config's prices, the reasoning billed as output.
	p := opencodetest.Price
	want := (float64(billed.Input)*p.Input + float64(billed.Output)*p.Output + float64(billed.CacheRead)*p.CacheRead) / 1e6
	if rec.Cost.Harness == nil || math.Abs(*rec.Cost.Harness-want) > 1e-9 {
		t.Errorf("cost.harness %v, want %v from the server's usage at the config's prices", rec.Cost.Harness, want)
	}
	for _, w := range warn {
		if !strings.Contains(w, `no price for model "mock-model"`) {
			t.Errorf("warning %q", w)
		}
	}
	a := audited(t, id, "--opencode-dir", data)
	checkAudit(t, a, "opencode", 3, calls, billed, 4)
	if len(a.Repeated) != 1 || a.Repeated[0].Tool != "Bash" || a.Repeated[0].Count != 2 {
		t.Errorf("repeated %+v, want wc -l twice", a.Repeated)
	}
	if after := dirState(t, data); after != before {
		t.Errorf("reading changed OpenCode's data directory:\nbefore %s\nafter  %s", before, after)
	}
}

// dirState names the files directly in dir with their sizes and modification times.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			fmt.Fprintf(&b, "%s %s %d\n", e.Name(), info.ModTime(), info.Size())
		}
	}
	return b.String()
}
