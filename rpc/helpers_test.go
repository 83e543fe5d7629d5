package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/saverd/saverd/internal/testfake"
)

const waitFor = 5 * time.Second

// wireMsg is any message as the host sees it.
type wireMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`

	header bool   // arrived with header framing
	raw    []byte // the frame as received
}

// host is the fake peer at the other end of a Conn, over in-memory pipes.
type host struct {
	t      testing.TB
	conn   *Conn
	in     *io.PipeWriter // host -> conn
	out    *io.PipeReader // conn -> host
	frames chan wireMsg
	log    *testfake.LockedBuffer
	wait   time.Duration // how long recv waits for a frame
}

// echo answers every call with its params.
func echo(_ context.Context, req Request) (any, error) { return req.Params, nil }

// startHost connects a Conn serving h to a fake host.
func startHost(t testing.TB, opt Options, h HandlerFunc) *host {
	t.Helper()
	hs := newHost(t, opt)
	hs.conn.Serve(context.Background(), h)
	return hs
}

// newHost connects a Conn to a fake host without serving.
func newHost(t testing.TB, opt Options) *host {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logs := &testfake.LockedBuffer{}
	opt.Logger = zerolog.New(logs)
	hs := &host{
		t:      t,
		conn:   NewConn(inR, outW, opt),
		in:     inW,
		out:    outR,
		frames: make(chan wireMsg, 4096),
		log:    logs,
		wait:   waitFor,
	}
	go hs.readFrames()
	t.Cleanup(func() {
		_ = hs.conn.Close()
		_ = inW.Close()
		_ = outR.Close()
		select {
		case <-hs.conn.Done():
		case <-time.After(waitFor):
			t.Error("connection not done after Close")
		}
	})
	return hs
}

// readFrames decodes the conn's output in either framing.
func (h *host) readFrames() {
	defer close(h.frames)
	br := bufio.NewReader(h.out)
	for {
		body, header, err := readOneFrame(br)
		if err != nil {
			return
		}
		var m wireMsg
		if err := json.Unmarshal(body, &m); err != nil {
			h.t.Errorf("conn wrote a malformed frame %q: %v", body, err)
			return
		}
		m.header, m.raw = header, body
		h.frames <- m
	}
}

func readOneFrame(br *bufio.Reader) (body []byte, header bool, err error) {
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, false, err
	}
	if !bytes.HasPrefix(line, []byte("Content-Length: ")) {
		return bytes.TrimSuffix(line, []byte("\n")), false, nil
	}
	if !bytes.HasSuffix(line, []byte("\r\n")) {
		return nil, true, fmt.Errorf("header line %q not CRLF terminated", line)
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(line[len("Content-Length: "):])))
	if err != nil {
		return nil, true, err
	}
	if blank, err := br.ReadString('\n'); err != nil || blank != "\r\n" {
		return nil, true, fmt.Errorf("no blank line after header: %q %v", blank, err)
	}
	body = make([]byte, n)
	_, err = io.ReadFull(br, body)
	return body, true, err
}

// send writes raw bytes to the conn.
func (h *host) send(s string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, s); err != nil {
		h.t.Fatalf("sending %q: %v", s, err)
	}
}

// sendHeader writes body with header framing.
func (h *host) sendHeader(body string) {
	h.t.Helper()
	h.send(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// call sends an NDJSON call with a numeric id.
func (h *host) call(id int, method string, params string) {
	h.t.Helper()
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params))
}

// recv returns the next frame from the conn.
func (h *host) recv() wireMsg {
	h.t.Helper()
	select {
	case m, ok := <-h.frames:
		if !ok {
			h.t.Fatal("conn output ended")
		}
		return m
	case <-time.After(h.wait):
		h.t.Fatal("timed out waiting for a frame")
	}
	panic("unreachable")
}

// noFrame fails if the conn writes anything within d.
func (h *host) noFrame(d time.Duration) {
	h.t.Helper()
	select {
	case m, ok := <-h.frames:
		if ok {
			h.t.Fatalf("unexpected frame %s", m.raw)
		}
	case <-time.After(d):
	}
}

// expectResult receives a frame and checks it is a success reply.
func (h *host) expectResult(id, result string) wireMsg {
	h.t.Helper()
	m := h.recv()
	if string(m.ID) != id || m.Error != nil || string(m.Result) != result {
		h.t.Fatalf("got %s, want id %s result %s", m.raw, id, result)
	}
	return m
}

// expectError receives a frame and checks it is an error reply.
func (h *host) expectError(id string, code int64, msgPart string) wireMsg {
	h.t.Helper()
	m := h.recv()
	if string(m.ID) != id || m.Error == nil || m.Error.Code != code || !strings.Contains(m.Error.Message, msgPart) || m.Result != nil {
		h.t.Fatalf("got %s, want id %s error %d containing %q", m.raw, id, code, msgPart)
	}
	return m
}

// waitDone waits for the conn to end.
func waitDone(t testing.TB, c *Conn, within time.Duration) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(within):
		t.Fatalf("connection not done within %v", within)
	}
}

// callResult is the outcome of a Conn.Call run on a goroutine.
type callResult struct {
	raw json.RawMessage
	err error
}

// goCall runs Conn.Call on its own goroutine, as the daemon does.
func goCall(ctx context.Context, c *Conn, method string, params any) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		var raw json.RawMessage
		err := c.Call(ctx, method, params, &raw)
		ch <- callResult{raw, err}
	}()
	return ch
}

func waitCall(t testing.TB, ch <-chan callResult, within time.Duration) callResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatalf("Call did not return within %v", within)
	}
	panic("unreachable")
}

func isClosed(err error) bool { return errors.Is(err, ErrClosed) }
