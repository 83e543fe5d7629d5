//go:build linux

package codexcli

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/ptyterm"
)

// TUI runs the interactive client on a pseudo-terminal (120×40) in dir with CODEX_HOME=home. step is
// called every 100 ms with what the client drew so far, escape sequences and whitespace removed (the
// TUI places words with cursor moves, so "Blocked by hook" reads "Blockedbyhook"), and returns keys to
// type ("" for none) and whether it is done; TUI ends the client then, or after timeout, and returns
// that last screen.
func TUI(t testing.TB, bin, home, dir string, timeout time.Duration, step func(screen string) (keys string, done bool), args ...string) string {
	t.Helper()
	master, slave, err := ptyterm.OpenPTY(40, 120)
	if err != nil {
		t.Skipf("no pseudo-terminal for the interactive client: %v", err)
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// Without this the TUI starts an app-server daemon that outlives it (and the test).
	args = append([]string{"--disable", "daemon_auto_start"}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "MOCK_API_KEY=test", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatalf("start %s: %v", bin, err)
	}
	slave.Close()
	var mu sync.Mutex
	var raw []byte
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				mu.Lock()
				raw = append(raw, buf[:n]...)
				mu.Unlock()
				// The TUI asks where the cursor is before it draws; answer as a terminal would.
				if strings.Contains(string(buf[:n]), "\x1b[6n") {
					master.Write([]byte("\x1b[1;1R"))
				}
			}
			if err != nil {
				return
			}
		}
	}()
	screen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return flatten(string(raw))
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		<-tick.C
		keys, done := step(screen())
		if keys != "" {
			master.Write([]byte(keys))
		}
		if done {
			break
		}
	}
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
	_ = cmd.Wait()
	return screen()
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]|[\s\x00-\x1f]`)

func flatten(s string) string { return escapes.ReplaceAllString(s, "") }
