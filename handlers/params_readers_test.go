package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/saverd/saverd/rpc"
)

// frameReplies runs frames (NDJSON) through a fresh server, with the params readers or without, and
// returns what the connection wrote and the session's state after. Both runs of a frame share cwd, as
// the state shows it.
func frameReplies(t *testing.T, cwd string, frames []byte, readers bool) (out, state []byte) {
	t.Helper()
	opt := rpc.Options{Framing: rpc.FramingNDJSON, MaxFrameSize: 1 << 20}
	if readers {
		opt.ParamsReaders = ParamsReaders()
	}
	srv, out := serveFrames(t, cwd, frames, opt)
	st, err := srv.Handle(context.Background(), rpc.Request{Method: "debug.state", Params: json.RawMessage(`{"sessionId":"s"}`)})
	if err != nil {
		t.Fatal(err)
	}
	state, err = json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return out, state
}

// paramsReaderFrames are tool.call frames the one-pass reader takes, and ones it must leave to the
// handler's own decoders: names in another case, a member twice, params before the method, a method
// with an escape, a bad event, a frame whose envelope fails after its params were read.
var paramsReaderFrames = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{"sessionId":"s","at":1001,"ms":40,"event":{"tool":"Bash","tool_use_id":"t1","command":"npm test"},"result":{"text":"12 pass\n"}}}`,
	`{"jsonrpc":"2.0","id":2,"params":{"sessionId":"s","ms":4,"event":{"tool":"Read","tool_use_id":"t2","file_path":"/p/a.go"},"result":{"text":"x"}},"method":"tool.call"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tool.call","params":{"SessionId":"s","ms":4,"event":{"tool":"Bash","tool_use_id":"t3","command":"ls"},"result":{}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tool.call","params":{"sessionId":"s","ms":4,"ms":5,"event":{"tool":"Bash","tool_use_id":"t4","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tool\u002ecall","params":{"sessionId":"s","ms":4,"event":{"tool":"Bash","tool_use_id":"t5","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tool.call","params":{"sessionId":"s","ms":4,"event":["Bash"]}}`,
	`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","ms":4,"event":{"tool":"Bash","tool_use_id":"t7","command":"ls"}},"params":{}}`,
	`{"jsonrpc":"1.0","id":8,"method":"tool.call","params":{"sessionId":"s","ms":4,"event":{"tool":"Bash","tool_use_id":"t8","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":9,"method":"tool.call","params":{"sessionId":"s","ms":-1,"event":{"tool":"Bash","tool_use_id":"t9","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":91,"method":"tool.call","params":{"sessionId":"s","ms":1e19,"event":{"tool":"Bash","tool_use_id":"t91","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":92,"method":"tool.call","params":{"sessionId":"s","ms":9223372036854775807,"event":{"tool":"Bash","tool_use_id":"t92","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":10,"method":"tool.call","params":{"sessionId":"nobody","event":{"tool":"Bash","tool_use_id":"t10","command":"ls"}}}`,
	`{"jsonrpc":"2.0","id":11,"method":"tool.call","params":{"sessionId":"s","event":{"tool":"Agent","tool_use_id":"t11","description":"explore","prompt":"look"},"result":{"result":{"agentId":"a1","status":"completed"}}}}`,
	`{"jsonrpc":"2.0","method":"tool.call","params":{"sessionId":"s","event":{"tool":"Grep","tool_use_id":"t12","pattern":"x","todos":[{"a":1},{"a":1}]}}}`,
	// More members than the one-pass reader checks one against another: the full decoder's.
	`{"jsonrpc":"2.0","id":13,"method":"tool.call","params":{"sessionId":"s","event":{"tool":"Other","tool_use_id":"t13"` + manyMembers(40) + `}}}`,
}

// manyMembers is n members "m0":0 … written after a first one, each with a comma before it.
func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `,"m%d":%d`, i, i)
	}
	return b.String()
}

// TestParamsReadersAgree: every frame is answered the same, byte for byte, and leaves the same state,
// whether tool.call's params are read with the frame (the daemon's wiring) or by the handler after it.
func TestParamsReadersAgree(t *testing.T) {
	for _, frame := range paramsReaderFrames {
		in := []byte(frame + "\n")
		cwd := t.TempDir()
		outWith, stateWith := frameReplies(t, cwd, in, true)
		outWithout, stateWithout := frameReplies(t, cwd, in, false)
		if !bytes.Equal(outWith, outWithout) {
			t.Errorf("%s\nwith the readers: %s\nwithout: %s", frame, outWith, outWithout)
		}
		if !bytes.Equal(stateWith, stateWithout) {
			t.Errorf("%s: the states differ\nwith the readers: %s\nwithout: %s", frame, stateWith, stateWithout)
		}
	}
}

// FuzzParamsReaders holds the one-pass read of tool.call's params to the handler's own on any frame.
func FuzzParamsReaders(f *testing.F) {
	for _, frame := range paramsReaderFrames {
		f.Add([]byte(frame))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		if bytes.IndexByte(frame, '\n') >= 0 {
			return // one frame per run: a line break would make two
		}
		in := append(append([]byte(nil), frame...), '\n')
		cwd := t.TempDir()
		outWith, stateWith := frameReplies(t, cwd, in, true)
		outWithout, stateWithout := frameReplies(t, cwd, in, false)
		if !bytes.Equal(outWith, outWithout) || !bytes.Equal(stateWith, stateWithout) {
			t.Fatalf("%q\nwith the readers: %s\n%s\nwithout: %s\n%s", frame, outWith, stateWith, outWithout, stateWithout)
		}
	})
}

// TestLentFramesAgree: a frame whole in the read buffer is lent to the params reader, not copied; what
// outlives the next read must not be the buffer's. Both runs lend their frames (bufio hands back a whole
// line however many reads it took); read a byte at a time, the buffer slides to its start and the next
// read writes over the frame before it at once, the harsher of the two. So the two runs must write the
// same bytes and leave the same state, over enough frames to refill the buffer many times, of every kind
// (a read tool.call, one its reader refuses, other methods, notifications).
func TestLentFramesAgree(t *testing.T) {
	var in bytes.Buffer
	for i := range 600 {
		frame := paramsReaderFrames[i%len(paramsReaderFrames)]
		in.WriteString(strings.Replace(frame, `"t`, fmt.Sprintf(`"t%d-`, i), 1) + "\n")
		if i%50 == 0 {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"v%d","method":"view.text","params":{"sessionId":"s"}}`+"\n", i)
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","method":"turn.start","params":{"sessionId":"s","at":%d}}`+"\n", 2_000+i)
		}
	}
	cwd := t.TempDir()
	opt := rpc.Options{Framing: rpc.FramingNDJSON, MaxFrameSize: 1 << 20, ParamsReaders: ParamsReaders()}
	lentSrv, lent := serveFrames(t, cwd, in.Bytes(), opt)
	copiedSrv, copied := serveFramesFrom(t, cwd, iotest.OneByteReader(bytes.NewReader(in.Bytes())), opt)
	if !bytes.Equal(lent, copied) {
		t.Fatalf("lent frames answered differently:\nlent:   %.2000s\ncopied: %.2000s", lent, copied)
	}
	if a, b := debugState(t, lentSrv), debugState(t, copiedSrv); !bytes.Equal(a, b) {
		t.Fatalf("lent frames left another state:\nlent:   %.2000s\ncopied: %.2000s", a, b)
	}
}

func debugState(t *testing.T, srv *Server) []byte {
	t.Helper()
	st, err := srv.Handle(context.Background(), rpc.Request{Method: "debug.state", Params: json.RawMessage(`{"sessionId":"s"}`)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
