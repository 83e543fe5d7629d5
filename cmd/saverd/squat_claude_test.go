//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
)

// TestRealClaudeCodeGoesOnPastASquattedSocket: the real Claude Code, with saverd's hooks installed and
// its socket's directory made first by another user who listens there, runs its turn to the end (a tool
// call and the answer): every hook refuses the socket, the squatter receives nothing, and nothing of its
// answer reaches the model.
func TestRealClaudeCodeGoesOnPastASquattedSocket(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	srv, c := claudeapi.Offline(t, claudeapi.Steps(
		claudeapi.ToolUse("Bash", map[string]string{"command": "echo hi", "description": "say hi"}),
		claudeapi.Text("All done.")))
	tmp := sharedDir(t, 0o1777)
	dir := filepath.Join(tmp, "saverd-"+strconv.Itoa(os.Getuid()))
	log := filepath.Join(sharedDir(t, 0o777), "received")
	squat(t, "dir", dir, dir, log)
	state := t.TempDir()
	c.Env = append(c.Env, "SAVERD_SOCKET="+filepath.Join(dir, "saverd.sock"), "XDG_STATE_HOME="+state,
		"XDG_CONFIG_HOME="+filepath.Join(state, "config"), "GORACE=atexit_sleep_ms=0", "npm_config_update_notifier=false")
	install := exec.Command(binPath, "install", "claude-code", "--scope", "project", "--dir", c.Dir)
	install.Env = c.Env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("saverd install: %v\n%s", err, out)
	}
	res := c.Print(t, "the secret prompt", "--allowedTools", "Bash")
	if res.IsError || res.Result != "All done." {
		t.Fatalf("the turn did not run to its end: %+v", res)
	}
	for _, r := range srv.Requests() {
		if bytes.Contains(r.Body, []byte("SQUATTER")) {
			t.Fatalf("the squatter's answer reached the model: %.300q", r.Body)
		}
	}
	// The hooks ran, and each refused the socket (hook.log says why, as the hook's stderr line does).
	if hl, _ := os.ReadFile(filepath.Join(state, "saverd", "hook.log")); !bytes.Contains(hl, []byte("UserPromptSubmit: "+dir+" is owned by uid 65534")) {
		t.Fatalf("hook.log does not show the prompt's hook refusing the socket:\n%s", hl)
	}
	time.Sleep(200 * time.Millisecond) // the squatter appends what it read once a hook hangs up
	if got, _ := os.ReadFile(log); len(got) > 0 {
		t.Fatalf("the squatter received %d bytes: %.300q", len(got), got)
	}
}
