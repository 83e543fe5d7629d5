package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// hookFrame is one `hook` request frame, with a Content-Length header as saverd-hook sends it, carrying a Claude Code PostToolUse of a Bash call whose
// stdout is size bytes of output in lines: what the daemon reads from saverd-hook for a huge tool output.
func hookFrame(tb testing.TB, size int) []byte {
	tb.Helper()
	line := strings.Repeat("x", 99) + "\n"
	payload, err := json.Marshal(map[string]any{"session_id": "big", "transcript_path": "", "cwd": "/tmp", "permission_mode": "default",
		"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "cat big.log", "description": "the log"},
		"tool_response": map[string]any{"stdout": strings.Repeat(line, size/len(line)), "stderr": "", "interrupted": false, "isImage": false},
		"tool_use_id":   "toolu_big000000000"})
	if err != nil {
		tb.Fatal(err)
	}
	params, err := json.Marshal(HookParams{Harness: "claude-code", Event: "PostToolUse", Payload: payload})
	if err != nil {
		tb.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"hook","params":` + string(params) + "}"
	return []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// repeatFrames reads frame n times over, without holding n copies of it, each time with the call's
// tool_use_id numbered anew (its last nine digits), so that every hook records a row.
type repeatFrames struct {
	frame []byte
	n     int
	off   int
	seq   int
}

func (r *repeatFrames) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	if r.off == 0 {
		r.seq++
		id := []byte("toolu_big")
		at := bytes.LastIndex(r.frame, id) + len(id)
		copy(r.frame[at:at+9], fmt.Sprintf("%09d", r.seq))
	}
	k := copy(p, r.frame[r.off:])
	if r.off += k; r.off == len(r.frame) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}

// BenchmarkHook20MB is one Claude Code PostToolUse carrying 20 MB of Bash output, read from a connection
// as the daemon reads saverd-hook's request (rpc.Conn with the daemon's ParamsReaders) and answered: the
// time and the bytes allocated a hook, the frame's own buffer (its 20 MB, read once) included.
//
//	go test -run '^$' -bench Hook20MB -benchmem ./handlers
func BenchmarkHook20MB(b *testing.B) {
	frame := hookFrame(b, 20<<20)
	srv := New(session.Options{ForkAlways: true})
	conn := rpc.NewConn(&repeatFrames{frame: frame, n: b.N}, io.Discard, rpc.Options{Framing: rpc.FramingHeader, ParamsReaders: ParamsReaders()})
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	b.ResetTimer()
	conn.Serve(context.Background(), srv.HandleConn)
	<-conn.Done()
	b.StopTimer()
	sess, err := srv.Sessions().Session("big")
	if err != nil {
		b.Fatal(err)
	}
	rows := len(sess.State().Rows)
	if rows != min(b.N, 2000) {
		b.Fatalf("the session holds %d rows after %d hooks, want one a hook", rows, b.N)
	}
}

// BenchmarkHookHugeToolOutput is one PostToolUse carrying 30 MB of output through the hook method as the
// daemon answers it when the frame's own pass did not read the params (Server.Handle: the params decoded,
// the payload lent, not copied, then bridge.Parse).
//
//	go test -run '^$' -bench HookHugeToolOutput -benchmem ./handlers
func BenchmarkHookHugeToolOutput(b *testing.B) {
	srv := New(session.Options{ForkAlways: true})
	payload, err := json.Marshal(map[string]any{"session_id": "big", "cwd": "/tmp", "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_use_id": "t1", "tool_input": map[string]any{"command": "cat big.log"},
		"tool_response": map[string]any{"stdout": strings.Repeat("x", 30<<20) + strings.Repeat("\n", 1000)}})
	if err != nil {
		b.Fatal(err)
	}
	raw, err := json.Marshal(HookParams{Harness: "claude-code", Event: "PostToolUse", Payload: payload})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for range b.N {
		if _, err := srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw}); err != nil {
			b.Fatal(err)
		}
	}
}
