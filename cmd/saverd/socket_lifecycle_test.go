package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/hookcmd"
)

// TestSocketShutdownEndsOneConnection: on the shared socket a client's shutdown refuses only its own
// later requests and its exit closes only its own connection; a client connecting after them, as the
// next hook does, is served by the same daemon.
func TestSocketShutdownEndsOneConnection(t *testing.T) {
	e := newHookEnv(t)
	exited := startSocketDaemon(t, e, exec.Command(binPath, "serve", "--listen", e.sock, "--idle-exit", "0"))
	a, other := dialNDJSON(t, e.sock), dialNDJSON(t, e.sock)
	a.send(`{"jsonrpc":"2.0","id":1,"method":"session.start","params":{"sessionId":"s","cwd":"/tmp/p","at":1}}`)
	if got := a.reply(); got["error"] != nil {
		t.Fatalf("session.start: %v", got)
	}
	a.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if got := a.reply(); got["error"] != nil || got["result"] != nil {
		t.Fatalf("shutdown answered %v, want a null result", got)
	}
	a.send(`{"jsonrpc":"2.0","id":3,"method":"view.band","params":{"sessionId":"s"}}`)
	if got := a.reply(); !strings.Contains(jsonText(got["error"]), `"code":-32002`) {
		t.Fatalf("after its shutdown the connection answered %v, want -32002", got)
	}
	// The connection open beside it, and one opened after, are served as before.
	other.send(`{"jsonrpc":"2.0","id":1,"method":"view.band","params":{"sessionId":"s"}}`)
	if got := other.reply(); got["error"] != nil {
		t.Fatalf("another connection after a shutdown: %v", got)
	}
	a.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if line, err := a.r.ReadString('\n'); err != io.EOF {
		t.Fatalf("after exit the connection read %q, %v; want it closed", line, err)
	}
	select {
	case <-exited.done:
		t.Fatalf("the daemon exited (%v) on one client's exit", exited.err)
	case <-time.After(200 * time.Millisecond):
	}
	late := dialNDJSON(t, e.sock)
	late.send(`{"jsonrpc":"2.0","id":1,"method":"view.band","params":{"sessionId":"s"}}`)
	if got := late.reply(); got["error"] != nil {
		t.Fatalf("a connection after one client's exit: %v", got)
	}
}

type ndjsonConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialNDJSON(t *testing.T, sock string) *ndjsonConn {
	t.Helper()
	c, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return &ndjsonConn{t: t, c: c, r: bufio.NewReader(c)}
}

func (n *ndjsonConn) send(frame string) {
	n.t.Helper()
	if _, err := io.WriteString(n.c, frame+"\n"); err != nil {
		n.t.Fatal(err)
	}
}

// reply reads frames up to the next answer (notifications have a method and no id to answer).
func (n *ndjsonConn) reply() map[string]any {
	n.t.Helper()
	for {
		line, err := n.r.ReadString('\n')
		if err != nil {
			n.t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			n.t.Fatalf("frame %q: %v", line, err)
		}
		if _, note := m["method"]; !note {
			return m
		}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSocketOutlivesTheFDLimit: clients holding every file descriptor the daemon may open make its
// accepts fail; it serves on, and accepts again once they leave (it used to stop, its sessions lost).
func TestSocketOutlivesTheFDLimit(t *testing.T) {
	e := newHookEnv(t)
	// exec keeps the daemon the shell's own process, so the cleanup's kill reaches it.
	exited := startSocketDaemon(t, e, exec.Command("sh", "-c", `ulimit -n 64 && exec "$0" serve --listen "$1" --idle-exit 0`, binPath, e.sock))
	first := dialNDJSON(t, e.sock)
	first.send(`{"jsonrpc":"2.0","id":1,"method":"session.start","params":{"sessionId":"s","cwd":"/tmp/p","at":1}}`)
	if got := first.reply(); got["error"] != nil {
		t.Fatalf("session.start: %v", got)
	}
	var hogs []net.Conn
	for range 100 { // more than the daemon can hold: the kernel queues the rest unaccepted
		c, err := net.DialTimeout("unix", e.sock, time.Second)
		if err != nil {
			break
		}
		io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method"`) // half a frame, then nothing
		hogs = append(hogs, c)
	}
	time.Sleep(300 * time.Millisecond)
	select {
	case <-exited.done:
		t.Fatalf("the daemon exited (%v) when it ran out of descriptors", exited.err)
	default:
	}
	first.send(`{"jsonrpc":"2.0","id":2,"method":"view.band","params":{"sessionId":"s"}}`)
	if got := first.reply(); got["error"] != nil {
		t.Fatalf("a connection open before: %v", got)
	}
	for _, c := range hogs {
		c.Close()
	}
	late := dialNDJSON(t, e.sock)
	late.send(`{"jsonrpc":"2.0","id":1,"method":"view.band","params":{"sessionId":"s"}}`)
	if got := late.reply(); got["error"] != nil {
		t.Fatalf("a connection after the others left: %v (the session was lost?)", got)
	}
}

// waited is a started command's end: done is closed once it exited, err is then what Wait said.
type waited struct {
	done chan struct{}
	err  error
}

// startSocketDaemon starts cmd, a daemon on e's socket, in e's environment and waits until it listens;
// the test's cleanup kills it and waits for it to end.
func startSocketDaemon(t *testing.T, e *hookEnv, cmd *exec.Cmd) *waited {
	t.Helper()
	cmd.Env = e.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &waited{done: make(chan struct{})}
	go func() { w.err = cmd.Wait(); close(w.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-w.done })
	c, err := hookcmd.DialRetry(e.sock, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	return w
}
