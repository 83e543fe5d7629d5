package rpc

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// hangGuard fails a test whose connection never ends: no speed target, only a guard against waiting for
// good.
const hangGuard = 30 * time.Second

// servePipe serves an echo handler on one end of a pipe with opt and returns the other end.
func servePipe(t *testing.T, opt Options) (*Conn, net.Conn) {
	t.Helper()
	server, client := net.Pipe()
	t.Cleanup(func() { client.Close(); server.Close() })
	c := NewConn(server, server, opt)
	c.Serve(context.Background(), func(_ context.Context, req Request) (any, error) { return req.Method, nil })
	return c, client
}

// TestPartialFrameTimesOut: a frame begun and then left (the peer stopped mid-write, or trickles a byte
// now and then) ends its connection once it has waited FrameTimeout for its rest, freeing what it held;
// it used to be held for as long as the peer kept the connection open. A connection idle between frames
// is never timed out.
func TestPartialFrameTimesOut(t *testing.T) {
	const timeout = 100 * time.Millisecond
	cases := []struct {
		name string
		// send writes to the peer's end until the connection ends.
		send func(c net.Conn)
	}{
		{"half a frame, then nothing", func(c net.Conn) {
			io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method":"pi`)
		}},
		{"a header and half its body", func(c net.Conn) {
			io.WriteString(c, "Content-Length: 100\r\n\r\n{\"jsonrpc\":")
		}},
		{"a byte at a time, each under the timeout", func(c net.Conn) {
			io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method":"`)
			for {
				time.Sleep(timeout / 3)
				if _, err := io.WriteString(c, "x"); err != nil {
					return
				}
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, peer := servePipe(t, Options{FrameTimeout: timeout})
			go tc.send(peer)
			answered := make(chan []byte, 1)
			go func() { got, _ := io.ReadAll(peer); answered <- got }()
			select {
			case <-c.Done():
			case <-time.After(hangGuard):
				t.Fatal("the connection holding a partial frame never ended")
			}
			if err := c.Err(); !errors.Is(err, ErrFrameStalled) {
				t.Fatalf("Err = %v, want one saying a partial frame stalled", err)
			}
			peer.Close()
			// What came of a frame nobody finished is never answered as if it were one.
			if got := <-answered; len(got) > 0 {
				t.Fatalf("the stalled frame was answered: %q", got)
			}
		})
	}
	t.Run("idle between frames", func(t *testing.T) {
		c, peer := servePipe(t, Options{FrameTimeout: timeout})
		r := bufio.NewReader(peer)
		for i := range 3 {
			if i > 0 {
				time.Sleep(3 * timeout) // idle, with nothing begun
			}
			io.WriteString(peer, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
			if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, `"result":"ping"`) {
				t.Fatalf("reply %d: %q, %v", i, line, err)
			}
		}
		select {
		case <-c.Done():
			t.Fatalf("an idle connection ended: %v", c.Err())
		default:
		}
	})
}
