package main

import (
	"errors"
	"io"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAbandonedFramesAreLetGo: three connections each send 100 MB of a frame and stop mid-way; the
// daemon closes each once its frame has waited --frame-timeout for the rest, letting go of what it read
// (they used to be held for as long as the connections stayed open, 459 MB), and answers the next hook.
func TestAbandonedFramesAreLetGo(t *testing.T) {
	e := newHookEnv(t)
	startSocketDaemon(t, e, exec.Command(binPath, "serve", "--listen", e.sock, "--idle-exit", "0", "--frame-timeout", "1s"))
	chunk := `{"jsonrpc":"2.0","id":1,"method":"hook","params":{"payload":"` + strings.Repeat("x", 1<<20)
	closed := make(chan error, 3)
	for range 3 {
		c, err := net.Dial("unix", e.sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		go func() {
			for range 100 {
				if _, err := io.WriteString(c, chunk); err != nil {
					break
				}
			}
			// Nothing more is sent: the daemon must end the connection, which the read below sees.
			_ = c.SetReadDeadline(time.Now().Add(hangGuard))
			got, err := io.ReadAll(c)
			switch {
			case errors.Is(err, syscall.ECONNRESET): // closed with the frame's last bytes unread
				err = nil
			case err == nil && len(got) > 0:
				err = errors.New("the daemon answered " + string(got))
			}
			closed <- err
		}()
	}
	for range 3 {
		if err := <-closed; err != nil {
			t.Fatalf("a connection left mid-frame: %v, want it closed unanswered", err)
		}
	}
	if out := e.hook("SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Fatalf("SessionStart printed %q", out)
	}
	if e.daemonPID() == 0 {
		t.Fatal("the daemon is gone")
	}
}

// hangGuard fails a test that would otherwise wait for good: no speed target.
const hangGuard = 60 * time.Second
