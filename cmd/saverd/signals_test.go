package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// waitExit waits for the daemon to exit after a signal or a hang-up, and fails unless it exits 0 within
// a second.
func waitExit(t *testing.T, cmd *exec.Cmd, what string) {
	t.Helper()
	waitExitWithin(t, cmd, what, time.Second)
}

// waitExitWithin: the daemon exits cleanly within bound of the call (and is given 3 s more to be sure).
func waitExitWithin(t *testing.T, cmd *exec.Cmd, what string, bound time.Duration) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after %s: %v", what, err)
		}
		if d := time.Since(start); d > bound {
			t.Fatalf("exit after %s took %s", what, d)
		}
	case <-time.After(bound + 3*time.Second):
		t.Fatalf("daemon still running 3s after %s", what)
	}
}

// TestTerminatingSignalsFlush: every signal that ends the daemon ends it gracefully. SIGHUP used to
// kill it on the spot, with the sessions' registries unwritten and temp files left behind.
func TestTerminatingSignalsFlush(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			storeDir, cwd := t.TempDir(), t.TempDir()
			seedRegistry(t, storeDir, cwd, 1)
			c := startDaemon(t, false, nil, "--store", storeDir)
			startSession(c, "s", cwd)
			// The reply comes once the decision is on disk: the signal right after it loses nothing.
			c.ok("ui.action", map[string]any{"sessionId": "s", "action": "kill", "patternId": "execution:p-1"}, nil)
			_ = c.cmd.Process.Signal(sig)
			waitExit(t, c.cmd, sig.String())
			if temps, _ := filepath.Glob(filepath.Join(storeDir, "*.tmp-*")); len(temps) != 0 {
				t.Errorf("temp files left: %v", temps)
			}
			if got := storedDecisions(t, storeDir, cwd); got["execution:p-1"] != "kill" {
				t.Errorf("stored %v, want execution:p-1 killed", got)
			}
		})
	}
}

// TestClosedStdoutExitsCleanly: a host that stops reading closes the daemon's stdout; the next reply
// raised SIGPIPE, whose default kills the process. The failed write ends the connection instead, and
// the daemon exits 0 after its flush.
func TestClosedStdoutExitsCleanly(t *testing.T) {
	cmd := exec.Command(binPath, "--store", t.TempDir())
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadBytes('\n'); err != nil {
		t.Fatal(err)
	}
	_ = stdout.Close()
	for i := range 3 { // the first write after the close may land in the pipe's last moments
		_, _ = stdin.Write([]byte(`{"jsonrpc":"2.0","id":` + itoa(i+2) + `,"method":"initialize","params":{}}` + "\n"))
	}
	waitExit(t, cmd, "stdout closed")
}

// TestDecisionOnDiskBeforeItsReply: a decision was acknowledged while its write still ran in the
// background, so a daemon killed right after the reply lost it.
func TestDecisionOnDiskBeforeItsReply(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	seedRegistry(t, storeDir, cwd, 1)
	c := startDaemon(t, false, nil, "--store", storeDir)
	startSession(c, "s", cwd)
	c.ok("ui.action", map[string]any{"sessionId": "s", "action": "kill", "patternId": "execution:p-1"}, nil)
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
	if got := storedDecisions(t, storeDir, cwd); got["execution:p-1"] != "kill" {
		t.Errorf("stored %v after SIGKILL, want execution:p-1 killed", got)
	}
}

// TestEOFWhileAHandlerIsBlocked: the host hangs up while a handler is stuck (a decision waiting on the
// store's lock, held here by another process). The daemon used to outlive its host until the handler
// returned, or forever; it exits within a second or so, the shutdown grace included.
func TestEOFWhileAHandlerIsBlocked(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	seedRegistry(t, storeDir, cwd, 1)
	c := startDaemon(t, false, nil, "--store", storeDir)
	startSession(c, "s", cwd)
	lock, err := os.OpenFile(filepath.Join(storeDir, "registry.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	c.write(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "ui.action", "params": map[string]any{"sessionId": "s", "action": "kill", "patternId": "execution:p-1"}})
	time.Sleep(200 * time.Millisecond) // the handler is waiting on the lock
	c.stdin.Close()
	waitExitWithin(t, c.cmd, "EOF", 1500*time.Millisecond)
}

// TestExitWithStdinOpen: `exit` ends the daemon at once although the host keeps stdin open; it used to
// wait out the whole shutdown grace (0.8 s) for a read of stdin that never returns.
func TestExitWithStdinOpen(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	c := startDaemon(t, false, nil, "--store", storeDir)
	startSession(c, "s", cwd)
	c.ok("shutdown", nil, nil)
	c.notify("exit", nil)
	waitExitWithin(t, c.cmd, "exit", 400*time.Millisecond)
}
