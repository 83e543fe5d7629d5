//go:build linux

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness/qwen/qwentest"
)

// TestRealQwenCode runs the real Qwen Code offline against a scripted API: a turn with a shell command
// and a read, a `--continue` turn with a shell command, a `--resume <id>` turn repeating it; then
// `saverd sessions` must equal what the server answered, by every token kind, and `saverd audit` must show
// the three turns, the seven calls and the four tool calls.
func TestRealQwenCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Qwen Code")
	}
	r := offlineChat(t, qwentest.Binary(t), qwentest.Setup)
	turns := chatTurns(r.proj, "run_shell_command", "read_file", "file_path")
	r.srv.Add(turns[0]...)
	r.client.Must(t, r.ns, "-p", "TURN-A run a shell command then read notes.txt", "--yolo")
	r.srv.Add(turns[1]...)
	r.client.Must(t, r.ns, "--continue", "-p", "TURN-B count lines", "--yolo")
	chats, _ := filepath.Glob(filepath.Join(r.home, ".qwen", "projects", "*", "chats", "*.jsonl"))
	if len(chats) != 1 {
		t.Fatalf("chat logs %q, want one", chats)
	}
	id := strings.TrimSuffix(filepath.Base(chats[0]), ".jsonl")
	r.srv.Add(turns[2]...)
	r.client.Must(t, r.ns, "--resume", id, "-p", "TURN-B count lines again", "--yolo")

	calls, billed, helpers := chatBilled(r.srv.Log())
	if calls != 7 || helpers != 0 {
		t.Fatalf("the server answered %d main calls and %d helpers, want 7 and 0", calls, helpers)
	}
	dir := filepath.Join(r.home, ".qwen")
	recs, warn := savedSessions(t, "--qwen-dir", dir, "--harness", "qwen")
	if len(recs) != 1 || recs[0].SessionID != id {
		t.Fatalf("sessions %+v, want %s alone", recs, id)
	}
	checkRecord(t, recs[0], "qwen-code", calls, billed, chatTools(r.srv.Log()))
	if recs[0].Cwd != r.proj || recs[0].Cost.Total != nil || recs[0].Cost.UnpricedTokens != billed.Total() {
		t.Errorf("cwd %q, cost %+v", recs[0].Cwd, recs[0].Cost)
	}
	for _, w := range warn {
		if !strings.Contains(w, `no price for model "mock-model"`) {
			t.Errorf("warning %q", w) // usage_record.jsonl's running totals agree with the chat
		}
	}
	a := audited(t, id, "--qwen-dir", dir)
	checkAudit(t, a, "qwen-code", 3, calls, billed, 4)
	if len(a.Repeated) != 1 || a.Repeated[0].Tool != "Bash" || a.Repeated[0].Count != 2 {
		t.Errorf("repeated %+v, want wc -l twice", a.Repeated)
	}
}
