package handlers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// connHost is the Server's host over an rpc.Conn, as the daemon wires it.
type connHost struct{ c *rpc.Conn }

// servePipes serves srv on an rpc.Conn over in-memory pipes, wired as the daemon wires it (NDJSON, the
// params readers, HandleConn): the host writes its frames to in, and lines has each frame the daemon
// writes, trimmed, until its output ends. The test ends the connection (closing in) when it is done;
// cleanup closes both pipes and waits for the connection, so a writer blocked on a dead one is let go.
func servePipes(t *testing.T, srv *Server) (in *io.PipeWriter, lines <-chan string, conn *rpc.Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn = rpc.NewConn(inR, outW, rpc.Options{Framing: rpc.FramingNDJSON, ParamsReaders: ParamsReaders()})
	conn.Serve(context.Background(), srv.HandleConn)
	out := make(chan string, 16)
	go func() {
		defer close(out)
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			out <- strings.TrimSpace(line)
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		inR.Close()
		outR.Close()
		<-conn.Done()
		for range out { // the reader ends with the output
		}
	})
	return inW, out, conn
}

func (h connHost) Notify(method string, params any) {
	_ = h.c.Notify(context.Background(), method, params)
}
func (h connHost) Fork(context.Context, session.ForkRequest) (*session.ForkResult, error) {
	return nil, nil // a cold answer: a fuzzed host answers no fork
}

const probe = `{"jsonrpc":"2.0","id":"probe","method":"view.band","params":{"sessionId":"s"}}`

// FuzzFramePath feeds arbitrary bytes through the whole frame path a host's input takes — framing
// (NDJSON, Content-Length or detected), the depth bound, the decoders, dispatch into a live session —
// and checks that the daemon never dies, that every frame it writes is one valid JSON-RPC message in
// UTF-8, that the input's end ends the connection within seconds, and (in NDJSON framing, where a
// frame cannot swallow the next) that a request after the fuzzed bytes is still answered.
func FuzzFramePath(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{"sessionId":"s","ms":5,"event":{"tool":"Bash","tool_use_id":"t","command":"npm test"},"result":{"text":"ok"}}}`,
		"Content-Length: 5\r\n\r\n{\"a\":" + "Content-Length: 2\r\n\r\n{}",
		"Content-Length: -1\r\n\r\nContent-Length: 99999999999999999999\r\n\r\n",
		`{"jsonrpc":"2.0","id":"` + "\xff\xfe" + `","method":"turn.start","params":{"sessionId":"s"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"echo","params":` + string(bytes.Repeat([]byte("["), 300)) + `}`,
		`[{"jsonrpc":"2.0","id":3,"method":"initialize"}]`,
		`{"jsonrpc":"2.0","id":7,"result":"stray"}`,
		`{"jsonrpc":"2.0","id":4,"method":"command.run","params":{"sessionId":"s","command":"saver","args":"check"}}`,
		`{"jsonrpc":"2.0","method":"shutdown"}` + "\n" + `{"jsonrpc":"2.0","id":5,"method":"exit"}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i%3), []byte(s))
	}
	f.Fuzz(func(t *testing.T, mode uint8, input []byte) {
		framing := []rpc.Framing{rpc.FramingNDJSON, rpc.FramingHeader, rpc.FramingAuto}[int(mode)%3]
		stream := append(append([]byte(nil), input...), '\n')
		if framing == rpc.FramingNDJSON {
			stream = append(stream, probe+"\n"...)
		}
		_, out := serveFrames(t, t.TempDir(), stream, rpc.Options{Framing: framing, MaxFrameSize: 1 << 20, ParamsReaders: ParamsReaders()})
		frames, header := outputFrames(t, out)
		probed := false
		for _, body := range frames {
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if !utf8.Valid(body) || json.Unmarshal(body, &m) != nil || m.JSONRPC != "2.0" {
				t.Fatalf("wrote a frame that is no JSON-RPC message in UTF-8: %q (input %q)", body, input)
			}
			probed = probed || string(m.ID) == `"probe"`
		}
		if framing == rpc.FramingNDJSON && !probed && !header {
			t.Fatalf("the request after the fuzzed bytes went unanswered; input %q, output %q", input, out)
		}
	})
}

// serveFrames runs stream through a fresh server, holding session "s" in cwd, over an rpc.Conn with
// opt, as the daemon wires it, and returns the server and everything the connection wrote.
func serveFrames(t *testing.T, cwd string, stream []byte, opt rpc.Options) (*Server, []byte) {
	t.Helper()
	return serveFramesFrom(t, cwd, bytes.NewReader(stream), opt)
}

// serveFramesFrom is serveFrames reading the stream from r.
func serveFramesFrom(t *testing.T, cwd string, r io.Reader, opt rpc.Options) (*Server, []byte) {
	t.Helper()
	srv := New(session.Options{Synchronous: true, Store: testfake.NewRegistry(), WriteRoot: t.TempDir(), Clock: func() int64 { return 1_000 }})
	ctx := context.Background()
	if _, err := srv.Handle(ctx, rpc.Request{Method: "session.start", Params: json.RawMessage(`{"sessionId":"s","cwd":"` + cwd + `"}`)}); err != nil {
		t.Fatal(err)
	}
	out := &testfake.LockedBuffer{}
	conn := rpc.NewConn(r, out, opt)
	srv.SetHost(connHost{conn})
	conn.Serve(ctx, srv.HandleConn)
	select {
	case <-conn.Done():
	case <-time.After(10 * time.Second):
		if b, ok := r.(*bytes.Reader); ok {
			all := make([]byte, b.Size())
			n, _ := b.ReadAt(all, 0)
			t.Fatalf("the connection did not end 10s after its input did; input %q", all[:n])
		}
		t.Fatal("the connection did not end 10s after its input did")
	}
	return srv, out.Bytes()
}

// outputFrames splits the daemon's output into frame bodies, in whichever framing it wrote.
func outputFrames(t *testing.T, out []byte) (bodies [][]byte, header bool) {
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return bodies, header
		}
		rest, ok := bytes.CutPrefix(line, []byte("Content-Length: "))
		if !ok {
			bodies = append(bodies, bytes.TrimSuffix(line, []byte("\n")))
			continue
		}
		header = true
		n, perr := strconv.Atoi(string(bytes.TrimSpace(rest)))
		if blank, _ := br.ReadString('\n'); perr != nil || blank != "\r\n" {
			t.Fatalf("malformed header in the output: %q", out)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatal(fmt.Errorf("short body in the output: %w", err))
		}
		bodies = append(bodies, body)
	}
}
