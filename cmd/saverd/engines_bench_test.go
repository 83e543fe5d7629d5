package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/internal/hookcmd"
)

// BenchmarkAudit is `saverd audit` of a Claude Code transcript and of a Codex rollout, in process: the
// session read, played through the reducer, the detectors run and the text drawn.
//
//	go test -run '^$' -bench Audit -benchmem ./cmd/saverd
func BenchmarkAudit(b *testing.B) {
	for _, tc := range []struct{ name, path string }{{"claude", twoTurns}, {"codex", resumed}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(b.Context(), []string{"audit", tc.path}, nil, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkSocketToolCall is one tool.call's round trip through the socket daemon's hub (the real binary,
// built without -race, serving --listen): one connection, a session past its row cap, each call sent and
// its reply read before the next.
//
//	go test -run '^$' -bench SocketToolCall -benchmem ./cmd/saverd
func BenchmarkSocketToolCall(b *testing.B) {
	dir := b.TempDir()
	sock := filepath.Join(dir, "run", "saverd.sock")
	daemon := exec.Command(plainBinary(b), "serve", "--listen", sock, "--store", filepath.Join(dir, "store"), "--log-level", "error", "--idle-exit", "0")
	daemon.Env = append(daemon.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	if err := daemon.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = daemon.Process.Kill(); _ = daemon.Wait() })
	conn, err := hookcmd.DialRetry(sock, 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	c := &socketClient{conn: conn, r: bufio.NewReaderSize(conn, 1<<16)}
	c.call(b, "session.start", []byte(`{"sessionId":"bench","cwd":"/bench","at":1000,"usage":{"window":1000000}}`))
	c.call(b, "turn.start", []byte(`{"sessionId":"bench","at":1001}`))
	for i := range fullsession.Calls {
		c.call(b, "tool.call", fullsession.ToolCall("bench", i))
	}
	i := fullsession.Calls
	for b.Loop() {
		c.call(b, "tool.call", fullsession.ToolCall("bench", i))
		i++
	}
}

// socketClient sends one NDJSON request at a time on a socket connection and reads its reply (a client
// that never said initialize is sent no notification).
type socketClient struct {
	conn net.Conn
	r    *bufio.Reader
	id   int
	buf  []byte
}

func (c *socketClient) call(b *testing.B, method string, params []byte) {
	c.id++
	c.buf = append(c.buf[:0], `{"jsonrpc":"2.0","id":`...)
	c.buf = strconv.AppendInt(c.buf, int64(c.id), 10)
	c.buf = append(c.buf, `,"method":"`...)
	c.buf = append(c.buf, method...)
	c.buf = append(c.buf, `","params":`...)
	c.buf = append(c.buf, params...)
	c.buf = append(c.buf, "}\n"...)
	if _, err := c.conn.Write(c.buf); err != nil {
		b.Fatal(err)
	}
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		b.Fatalf("read reply to %s: %v", method, err)
	}
	if bytes.Contains(line, []byte(`"error"`)) {
		b.Fatalf("%s failed: %s", method, line)
	}
}
