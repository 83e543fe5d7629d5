package handlers

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/rpc"
)

// hookFrameOf is a hook request frame (one line) of event with the payload's members after its common
// ones, the params' members after harness, event and payload.
func hookFrameOf(event, payload, params string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"hook","params":{"harness":"claude-code","event":"` + event +
		`","payload":{"session_id":"h","transcript_path":"","cwd":"/p","hook_event_name":"` + event + `"` + payload + `}` + params + `}}`
}

// longText is n bytes of lines, JSON-quoted: past the length from which a tool's text is measured.
func longText(n int) string { return `"` + strings.Repeat(`a line of output\n`, n/17) + `tail"` }

// hookReaderFrames are hook frames the one-pass reader takes (long outputs of every shape it measures,
// short ones it copies), and ones it must leave to the handler's decoders.
var hookReaderFrames = []string{
	hookFrameOf("PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"cat log"},"tool_use_id":"t1","tool_response":{"stdout":`+longText(100<<10)+`,"stderr":"warn","interrupted":false}`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t2","tool_response":{"stdout":"a\nb","stderr":""},"duration_ms":12.5`, `,"plugin":true`),
	hookFrameOf("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/p/a.go"},"tool_use_id":"t3","tool_response":{"type":"text","file":{"filePath":"/p/a.go","content":`+longText(90<<10)+`,"startLine":7}}`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"Grep","tool_input":{"pattern":"x"},"tool_use_id":"t4","tool_response":{"mode":"content","content":`+longText(70<<10)+`}`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"exec_command","tool_input":{"cmd":"make"},"tool_use_id":"t5","tool_response":`+longText(80<<10)+`,"model":"gpt-5.5","turn_id":"u1"`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"mcp__x__y","tool_input":{},"tool_use_id":"t6","tool_response":{"output":`+longText(80<<10)+`,"output":"twice"}`, ""),
	hookFrameOf("PostToolUse", `,"tool_use_id":"t7","tool_response":{"stdout":`+longText(80<<10)+`},"tool_name":"Bash","tool_input":{"command":"late name"}`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"Agent","tool_input":{"prompt":"look","description":"d"},"tool_use_id":"t8","tool_response":{"agentId":"a1","status":"completed","content":[{"type":"text","text":"found"}]}`, ""),
	hookFrameOf("PostToolUseFailure", `,"tool_name":"Bash","tool_input":{"command":"false"},"tool_use_id":"t9","error":"exit 1","is_interrupt":false`, ""),
	hookFrameOf("PostToolUse", `,"tool_name":"Bash","tool_input":null,"tool_use_id":"t10","tool_response":null,"duration_ms":null,"error":null`, `,"debug":null,"readBy":null`),
	hookFrameOf("SessionStart", `,"source":"resume","context_tokens":5000`, ""),
	hookFrameOf("SessionStart", `,"source":"resume","context_tokens":50.5`, ""),
	hookFrameOf("UserPromptSubmit", `,"prompt":"fix the \u00e9 test \ud83d\ude00"`, ""),
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, ""),
	hookFrameOf("UserPromptSubmit", `,"Prompt":"case"`, ""),
	hookFrameOf("UserPromptSubmit", `,"prompt":"twice","prompt":"again"`, ""),
	hookFrameOf("UserPromptSubmit", `,"prompt":7`, ""),
	hookFrameOf("Stop", `,"last_assistant_message":"done","stop_hook_active":true`, `,"readBy":1`),
	hookFrameOf("Stop", `,"stop_hook_active":"yes"`, ""),
	hookFrameOf("PreToolUse", `,"tool_name":"Agent","tool_input":{"prompt":"go","subagent_type":"Explore"},"tool_use_id":"t11"`, ""),
	hookFrameOf("SubagentStart", `,"agent_id":"a1","agent_type":"Explore"`, ""),
	hookFrameOf("SubagentStart", ``, ""),
	hookFrameOf("PreToolUse", `,"tool_input":{}`, ""),
	hookFrameOf("Stop", ``, `,"Event":"Stop"`),
	hookFrameOf("Stop", ``, `,"readBy":1.5`),
	hookFrameOf("PreCompact", `,"trigger":"auto","hook_event_name":"PreCompact"`, ""),
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"harness":"claude-code","event":"Stop","payload":"not an object"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"harness":"claude-code","event":"Stop"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"harness":"nobody","event":"Stop","payload":{"session_id":"h","cwd":"/p"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"event":"Nothing","payload":{"session_id":"h","cwd":"/p"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"event":"Stop","payload":{"session_id":"h","cwd":"/p","hook_event_name":"SessionEnd"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"event":"Stop","payload":{"session_id":"","cwd":"/p"}}}`,
	// The room the pane is drawn in: said, null, below nothing, of another type, twice.
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, `,"width":70`),
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, `,"width":null`),
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, `,"width":-3`),
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, `,"width":"wide"`),
	hookFrameOf("UserPromptSubmit", `,"prompt":"/saver"`, `,"width":70,"width":80`),
}

// hookReplies runs frame, then a debug.state of its session, through a fresh server's connection, with
// the params readers or without: what the connection wrote.
func hookReplies(t *testing.T, frame string, readers bool) []byte {
	t.Helper()
	opt := rpc.Options{Framing: rpc.FramingNDJSON, MaxFrameSize: 4 << 20}
	if readers {
		opt.ParamsReaders = ParamsReaders()
	}
	in := frame + "\n" + `{"jsonrpc":"2.0","id":2,"method":"debug.state","params":{"sessionId":"h"}}` + "\n"
	_, out := serveFrames(t, t.TempDir(), []byte(in), opt)
	// A ui.invalidate goes out on a timer (session.invalidateEvery), before the connection closes or
	// not, with the readers or without: what the two are held to is the replies and the state.
	var kept [][]byte
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		if !bytes.Contains(line, []byte(`"method":"ui.invalidate"`)) {
			kept = append(kept, line)
		}
	}
	return bytes.Join(kept, nil)
}

// TestHookReadersAgree: a hook is answered the same, byte for byte, and leaves its session in the same
// state, whether its params are read with the frame (the daemon's wiring: the tool output measured
// there) or decoded by the handler after it.
func TestHookReadersAgree(t *testing.T) {
	for i, frame := range hookReaderFrames {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			with, without := hookReplies(t, frame, true), hookReplies(t, frame, false)
			if !bytes.Equal(with, without) {
				t.Errorf("%.300s\nwith the readers: %.3000s\nwithout: %.3000s", frame, with, without)
			}
		})
	}
}

// TestHookReaderTakesHooks: the frames a hook's reader is meant for are read by it, not handed on: a
// reader that refused them all would pass TestHookReadersAgree.
func TestHookReaderTakesHooks(t *testing.T) {
	for i, want := range map[int]bool{0: true, 2: true, 4: true, 6: true, 9: true, 10: true, 11: false, 14: false, 15: false, 16: false, 24: false, 26: false, 32: true, 33: true, 35: false, 36: false} {
		frame := hookReaderFrames[i]
		params := frame[strings.Index(frame, `"params":`)+len(`"params":`) : len(frame)-1]
		sc := jsonscanAt(params)
		_, ok := readHookParams(&sc)
		if ok != want {
			t.Errorf("frame %d: read %v, want %v: %.200s", i, ok, want, frame)
		}
	}
}

// FuzzHookReaders holds the one-pass read of a hook's params to the handler's own on any frame.
func FuzzHookReaders(f *testing.F) {
	for _, frame := range hookReaderFrames {
		f.Add([]byte(frame))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		if bytes.IndexByte(frame, '\n') >= 0 {
			return // one frame per run: a line break would make two
		}
		if with, without := hookReplies(t, string(frame), true), hookReplies(t, string(frame), false); !bytes.Equal(with, without) {
			t.Fatalf("%q\nwith the readers: %s\nwithout: %s", frame, with, without)
		}
	})
}

// jsonscanAt is a scanner over params as the frame's pass meets them, one level down.
func jsonscanAt(params string) jsonscan.Scanner { return jsonscan.NewAt([]byte(params), 1) }
