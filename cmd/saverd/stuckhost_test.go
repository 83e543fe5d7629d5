package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStuckHostWedgesNoOne: one host stops reading (a hung editor) while another drives several MB of
// notifications through the daemon, far past the socket's buffer; the other host's requests and
// notifications, and a hook, go on being answered, and the stuck host is let go. (Notifications were
// written to every host in turn, so the first full buffer held every notifier, and the hooks behind them,
// for good.)
func TestStuckHostWedgesNoOne(t *testing.T) {
	e := newHookEnv(t)
	startSocketDaemon(t, e, exec.Command(binPath, "serve", "--listen", e.sock, "--idle-exit", "0"))
	stuck := dialNDJSON(t, e.sock)
	stuck.c.SetDeadline(time.Time{})
	stuck.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	stuck.reply() // and never reads again

	busy, err := net.Dial("unix", e.sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	const want = 4 << 20 // bytes of notifications the busy host reads
	got := make(chan int64, 1)
	go func() {
		r := bufio.NewReaderSize(busy, 64<<10)
		var notes int64
		for notes < want {
			line, err := r.ReadBytes('\n')
			if err != nil {
				break
			}
			if strings.Contains(string(line), `"method":"ui.`) {
				notes += int64(len(line))
			}
		}
		got <- notes
		io.Copy(io.Discard, r)
	}()
	fmt.Fprintln(busy, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	fmt.Fprintf(busy, `{"jsonrpc":"2.0","id":2,"method":"session.start","params":{"sessionId":"s","cwd":%q,"at":1000}}`+"\n", e.cwd)
	sent := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(busy)
		for i := 3; ; i++ {
			toggle, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "ui.action",
				"params": map[string]any{"sessionId": "s", "action": "togglePane"}})
			if _, err := w.Write(append(toggle, '\n')); err != nil {
				sent <- err
				return
			}
			if i%64 == 0 {
				if err := w.Flush(); err != nil {
					sent <- err
					return
				}
			}
		}
	}()
	select {
	case n := <-got:
		if n < want {
			t.Fatalf("the busy host read %d bytes of notifications, then its connection ended", n)
		}
	case err := <-sent:
		t.Fatalf("the busy host could not send: %v", err)
	case <-time.After(hangGuard):
		t.Fatal("the busy host stopped getting its notifications: the stuck host wedged the daemon")
	}
	if out := e.hook("SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Fatalf("a hook printed %q", out)
	}
	// The stuck host was let go: what it is sent ends, however much it reads now.
	stuck.c.SetReadDeadline(time.Now().Add(hangGuard))
	if _, err := io.Copy(io.Discard, stuck.c); err != nil {
		t.Fatalf("the stuck host's connection was not closed: %v", err)
	}
}
