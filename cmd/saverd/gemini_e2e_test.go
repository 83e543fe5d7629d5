//go:build linux

package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness/gemini/geminitest"
	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/geminiapi"
	"github.com/saverd/saverd/prices"
)

// TestRealGeminiCLI runs the real Gemini CLI offline against a scripted Gemini API: a headless turn with
// a shell command and a read, then two resumed turns (`-r latest`) with a shell command, a write and the
// same command again. The model router's calls reach the server but never the session log. Then
// `saverd sessions` must equal what the server answered the agent's loop by every token kind and per
// model (the thoughts billed as output, the tool-use prompt as input), its cost must be those calls at
// the table's published prices, the record must say the router's calls are not in it, and `saverd audit`
// must show the three turns, the calls and the five tool calls.
func TestRealGeminiCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Gemini CLI")
	}
	bin := geminitest.Binary(t)
	ns := claudeapi.Isolate(t)
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := geminiapi.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := agentProject(t, filepath.Join(root, "proj"))
	gemini := geminitest.Setup(t, bin, home, proj, srv.URL)

	shell := func(cmd string) geminiapi.Step {
		return geminiapi.Step{Calls: []geminiapi.Call{{Name: "run_shell_command", Args: map[string]any{"command": cmd, "description": "run it"}}}}
	}
	srv.Add(shell("echo hello-from-shell && ls"),
		geminiapi.Step{Calls: []geminiapi.Call{{Name: "read_file", Args: map[string]any{"file_path": "notes.txt"}}}},
		geminiapi.Step{Text: "notes.txt says it is a test file."})
	out := gemini.Must(t, ns, "-p", "TURN1: list the files and read notes.txt", "--yolo", "-o", "json").Stdout
	var first struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &first); err != nil || first.SessionID == "" {
		t.Fatalf("gemini -o json: %v\n%s", err, out)
	}
	srv.Add(shell("wc -l notes.txt"),
		geminiapi.Step{Calls: []geminiapi.Call{{Name: "write_file", Args: map[string]any{"file_path": "count.txt", "content": "2 lines\n"}}}},
		geminiapi.Step{Text: "Counted and wrote count.txt."})
	gemini.Must(t, ns, "-r", "latest", "-p", "TURN2: count the lines and write them down", "--yolo")
	srv.Add(shell("wc -l notes.txt"), geminiapi.Step{Text: "Still 2 lines."})
	gemini.Must(t, ns, "-r", "latest", "-p", "TURN3: count them again", "--yolo")

	// What the server answered: the loop's calls by model, and the router's apart.
	log := srv.Log()
	var billed agentlog.Tokens
	byModel := map[string]int{}
	calls, router := 0, 0
	var cost float64
	tab := prices.Default()
	tools := map[string]int{}
	for _, ex := range log {
		if ex.Utility {
			router++
			continue
		}
		calls++
		byModel[ex.Model]++
		u := ex.Usage
		tok := agentlog.Tokens{Input: u.Prompt - u.Cached + u.ToolUse, CacheRead: u.Cached, Output: u.Candidates + u.Thoughts}
		billed.Add(tok)
		rate, ok := tab.RateAt(ex.Model, ex.At)
		if !ok {
			t.Fatalf("no published price for %s", ex.Model)
		}
		cost += (float64(tok.Input)*rate.Input + float64(tok.CacheRead)*rate.CacheRead + float64(tok.Output)*rate.Output) / 1e6
		for _, c := range ex.Step.Calls {
			tools[c.Name]++
		}
	}
	if calls != 8 || router == 0 {
		t.Fatalf("the server answered %d loop calls and %d router calls, want 8 and some", calls, router)
	}
	dir := filepath.Join(home, ".gemini")
	recs, warn := savedSessions(t, "--gemini-dir", dir, "--harness", "gemini")
	if len(recs) != 1 || recs[0].SessionID != first.SessionID || len(warn) > 0 {
		t.Fatalf("sessions %+v (warnings %q), want %s alone", recs, warn, first.SessionID)
	}
	r := recs[0]
	checkRecord(t, r, "gemini", calls, billed, tools)
	for model, n := range byModel {
		if m := r.Models[model]; m == nil || m.Calls != n {
			t.Errorf("models %v, the server answered %v", r.Models, byModel)
		}
	}
	if r.Cost.Total == nil || math.Abs(*r.Cost.Total-cost) > 1e-9 {
		t.Errorf("cost %v, want %v: the server's usage at the published prices", r.Cost.Total, cost)
	}
	if !strings.Contains(r.Unlogged, "router") || r.Cwd != proj {
		t.Errorf("unlogged %q, cwd %q", r.Unlogged, r.Cwd)
	}
	a := audited(t, first.SessionID, "--gemini-dir", dir)
	checkAudit(t, a, "gemini", 3, calls, billed, 5)
	if len(a.Repeated) != 1 || a.Repeated[0].Tool != "Bash" || a.Repeated[0].Count != 2 {
		t.Errorf("repeated %+v, want wc -l twice", a.Repeated)
	}
}
