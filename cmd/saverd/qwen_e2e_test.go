//go:build linux

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness/qwen/qwentest"
	"github.com/saverd/saverd/internal/chatapi"
	"github.com/saverd/saverd/internal/claudeapi"
)

// TestRealQwenCode runs the real Qwen Code offline against a scripted API: a turn with a shell command
// and a read, a `--continue` turn with a shell command, a `--resume <id>` turn repeating it; then
// `saverd sessions` must equal what the server answered, by every token kind, and `saverd audit` must show
// the three turns, the seven calls and the four tool calls.
func TestRealQwenCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Qwen Code")
	}
	bin := qwentest.Binary(t)
	ns := claudeapi.Isolate(t)
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := chatapi.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := agentProject(t, filepath.Join(root, "proj"))
	qwen := qwentest.Setup(t, bin, home, proj, srv.URL)

	shell := func(cmd string) chatapi.Step {
		return chatapi.Step{Calls: []chatapi.Call{{Name: "run_shell_command", Args: map[string]any{"command": cmd, "description": "run it"}}}}
	}
	srv.Add(shell("echo hello-from-shell && ls"),
		chatapi.Step{Calls: []chatapi.Call{{Name: "read_file", Args: map[string]any{"file_path": filepath.Join(proj, "notes.txt")}}}},
		chatapi.Step{Text: "Done: the shell printed hello-from-shell and notes.txt says it is a test file."})
	qwen.Must(t, ns, "-p", "TURN-A run a shell command then read notes.txt", "--yolo")
	srv.Add(shell("wc -l notes.txt"), chatapi.Step{Text: "Second turn done: notes.txt has 2 lines."})
	qwen.Must(t, ns, "--continue", "-p", "TURN-B count lines", "--yolo")
	chats, _ := filepath.Glob(filepath.Join(home, ".qwen", "projects", "*", "chats", "*.jsonl"))
	if len(chats) != 1 {
		t.Fatalf("chat logs %q, want one", chats)
	}
	id := strings.TrimSuffix(filepath.Base(chats[0]), ".jsonl")
	srv.Add(shell("wc -l notes.txt"), chatapi.Step{Text: "Second turn done: notes.txt has 2 lines."})
	qwen.Must(t, ns, "--resume", id, "-p", "TURN-B count lines again", "--yolo")

	calls, billed, helpers := chatBilled(srv.Log())
	if calls != 7 || helpers != 0 {
		t.Fatalf("the server answered %d main calls and %d helpers, want 7 and 0", calls, helpers)
	}
	recs, warn := savedSessions(t, "--qwen-dir", filepath.Join(home, ".qwen"), "--harness", "qwen")
	if len(recs) != 1 || recs[0].SessionID != id {
		t.Fatalf("sessions %+v, want %s alone", recs, id)
	}
	checkRecord(t, recs[0], "qwen-code", calls, billed, chatTools(srv.Log()))
	if recs[0].Cwd != proj || recs[0].Cost.Total != nil || recs[0].Cost.UnpricedTokens != billed.Total() {
		t.Errorf("cwd %q, cost %+v", recs[0].Cwd, recs[0].Cost)
	}
	for _, w := range warn {
		if !strings.Contains(w, `no price for model "mock-model"`) {
			t.Errorf("warning %q", w) // usage_record.jsonl's running totals agree with the chat
		}
	}
	a := audited(t, id, "--qwen-dir", filepath.Join(home, ".qwen"))
	checkAudit(t, a, "qwen-code", 3, calls, billed, 4)
	if len(a.Repeated) != 1 || a.Repeated[0].Tool != "Bash" || a.Repeated[0].Count != 2 {
		t.Errorf("repeated %+v, want wc -l twice", a.Repeated)
	}
}
