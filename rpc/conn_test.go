package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
)

// afterEach is sent after every bad frame: the connection must still answer.
const afterEach = `{"jsonrpc":"2.0","id":99,"method":"echo","params":[99]}` + "\n"

func TestMalformedFramesAreAnswered(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		code  int64
		id    string
		msg   string
	}{
		{"not json", `{bad json`, CodeParseError, "null", "parse error: invalid character"},
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"echo"`, CodeParseError, "null", "parse error:"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"echo"} x`, CodeParseError, "null", "parse error:"},
		{"batch", `[1,2]`, CodeInvalidRequest, "null", "invalid request: batch requests are not supported"},
		{"empty batch", `[]`, CodeInvalidRequest, "null", "batch"},
		{"version only", `{"jsonrpc":"2.0"}`, CodeInvalidRequest, "null", `invalid request: missing "method"`},
		{"empty object", `{}`, CodeInvalidRequest, "null", `missing "method"`},
		{"string", `"hello"`, CodeInvalidRequest, "null", "want a JSON object, got string"},
		{"number", `42`, CodeInvalidRequest, "null", "got number"},
		{"null", `null`, CodeInvalidRequest, "null", "got null"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"echo"}`, CodeInvalidRequest, "1", `"jsonrpc" must be "2.0"`},
		{"missing version", `{"id":"a","method":"echo"}`, CodeInvalidRequest, `"a"`, `missing "jsonrpc"`},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":5}`, CodeInvalidRequest, "3", `"method" must be a non-empty string`},
		{"empty method", `{"jsonrpc":"2.0","id":4,"method":""}`, CodeInvalidRequest, "4", `"method" must be a non-empty string`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}`, CodeInvalidRequest, "null", `"id" must be a string, number or null, got object`},
		{"scalar params", `{"jsonrpc":"2.0","id":5,"method":"echo","params":5}`, CodeInvalidRequest, "5", `"params" must be an object or array, got number`},
		{"invalid notification", `{"jsonrpc":"2.0","method":"echo","params":"x"}`, CodeInvalidRequest, "null", `"params"`},
		{"id alone", `{"jsonrpc":"2.0","id":6}`, CodeInvalidRequest, "6", `missing "method"`},
		// Two million nested arrays overflowed the decoder's stack and ended the process.
		{"nested two million deep", `{"jsonrpc":"2.0","id":7,"method":"echo","params":` + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000) + `}`,
			CodeParseError, "null", "parse error: nesting deeper than 128 levels (at byte 176)"},
		{"tool input nested too deep", `{"jsonrpc":"2.0","id":8,"method":"echo","params":{"input":` + strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat("}", 200) + `}}`,
			CodeParseError, "null", "nesting deeper than 128 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHost(t, Options{}, echo)
			h.send(tt.frame + "\n")
			h.expectError(tt.id, tt.code, tt.msg)
			h.send(afterEach)
			h.expectResult("99", "[99]")
			if err := h.conn.Err(); err != nil {
				t.Fatalf("Err() = %v", err)
			}
		})
	}
}

func TestMalformedHeaderFramesAreAnswered(t *testing.T) {
	h := startHost(t, Options{Framing: FramingHeader}, echo)
	good := `{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}`
	steps := []struct {
		send string
		msg  string
	}{
		{"Content-Type: text/plain\r\n\r\n", "missing Content-Length"},
		{"Content-Length: abc\r\n\r\n", "invalid Content-Length"},
		{"Content-Length: 5\r\n\r\n{oops", "parse error: invalid character"},
		{"garbage line\r\n", "invalid header line"},
	}
	for _, st := range steps {
		h.send(st.send)
		if m := h.expectError("null", CodeParseError, st.msg); !m.header {
			t.Fatalf("error reply not in header framing: %s", m.raw)
		}
		h.sendHeader(good)
		h.expectResult("1", "{}")
	}
}

func TestIDsAreEchoedVerbatim(t *testing.T) {
	h := startHost(t, Options{}, echo)
	for _, id := range []string{`"abc"`, `""`, `"1"`, `0`, `-1`, `12345678901234567890`, `1.5`, `1e3`, `null`} {
		h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"echo","params":[]}`+"\n", id))
		h.expectResult(id, "[]")
	}
}

func TestParamsReachTheHandlerVerbatim(t *testing.T) {
	got := make(chan Request, 10)
	h := startHost(t, Options{}, func(_ context.Context, req Request) (any, error) {
		got <- req
		return nil, nil
	})
	tests := []struct {
		frame  string
		params string // "" for nil
		notify bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"s": "<a&b>" , "n":1.50}}`, `{"s": "<a&b>" , "n":1.50}`, false},
		{`{"jsonrpc":"2.0","id":2,"method":"m","params":[ 1 ]}`, `[ 1 ]`, false},
		{`{"jsonrpc":"2.0","id":3,"method":"m"}`, "", false},
		{`{"jsonrpc":"2.0","id":4,"method":"m","params":null}`, "", false},
		{`{"jsonrpc":"2.0","method":"n","params":{"k":"\u00e9"}}`, `{"k":"\u00e9"}`, true},
	}
	for _, tt := range tests {
		h.send(tt.frame + "\n")
		req := <-got
		if string(req.Params) != tt.params || (req.Params == nil) != (tt.params == "") || req.Notification != tt.notify {
			t.Errorf("%s: handler got %+v", tt.frame, req)
		}
		if !tt.notify {
			h.recv()
		}
	}
}

func TestHandlerAnswers(t *testing.T) {
	var typedNil *Error
	answers := map[string]func() (any, error){
		"nil":       func() (any, error) { return nil, nil },
		"struct":    func() (any, error) { return struct{ A int }{1}, nil },
		"not found": func() (any, error) { return nil, MethodNotFound("nope") },
		"with data": func() (any, error) { return nil, InvalidParams("bad").WithData(map[string]string{"field": "x"}) },
		"wrapped": func() (any, error) {
			return nil, fmt.Errorf("session.event: %w", NewError(-32001, "unknown sessionId: call session.start first").WithData(map[string]string{"sessionId": "s1"}))
		},
		"plain":       func() (any, error) { return nil, errors.New("disk full") },
		"typed nil":   func() (any, error) { return nil, typedNil },
		"panic":       func() (any, error) { panic("kaboom") },
		"bad result":  func() (any, error) { return make(chan int), nil },
		"bad data":    func() (any, error) { return nil, NewError(-32003, "x").WithData(func() {}) },
		"failed":      func() (any, error) { return nil, NewError(-32003, "model busy") },
		"shutting":    func() (any, error) { return nil, NewError(-32002, "server shutting down") },
		"result+err":  func() (any, error) { return "ignored", InternalError("both") },
		"raw message": func() (any, error) { return json.RawMessage(`{"z": [1, 2]}`), nil },
		"echo":        func() (any, error) { return []int{99}, nil },
	}
	handler := func(_ context.Context, req Request) (any, error) {
		if f, ok := answers[req.Method]; ok {
			return f()
		}
		return nil, MethodNotFound(req.Method)
	}
	tests := []struct {
		method string
		result string // for success
		code   int64  // for errors
		msg    string
		data   string
	}{
		{method: "nil", result: "null"},
		{method: "struct", result: `{"A":1}`},
		{method: "raw message", result: `{"z":[1,2]}`},
		{method: "not found", code: CodeMethodNotFound, msg: "method not found: nope"},
		{method: "unknown.method", code: CodeMethodNotFound, msg: "method not found: unknown.method"},
		{method: "with data", code: CodeInvalidParams, msg: "bad", data: `{"field":"x"}`},
		{method: "wrapped", code: -32001, msg: "session.event: unknown sessionId: call session.start first", data: `{"sessionId":"s1"}`},
		{method: "plain", code: CodeInternalError, msg: "disk full"},
		{method: "typed nil", code: CodeInternalError, msg: "handler returned a nil *rpc.Error"},
		{method: "panic", code: CodeInternalError, msg: "internal error: handler for panic panicked: kaboom"},
		{method: "bad result", code: CodeInternalError, msg: "internal error: encoding result of bad result: json: unsupported type: chan int"},
		{method: "bad data", code: -32003, msg: "x"},
		{method: "failed", code: -32003, msg: "model busy"},
		{method: "shutting", code: -32002, msg: "server shutting down"},
		{method: "result+err", code: CodeInternalError, msg: "both"},
	}
	h := startHost(t, Options{}, handler)
	// One connection for all cases (no subtests: the host helper fails the
	// parent test), so each case also proves the previous one left it alive.
	for i, tt := range tests {
		h.call(i, tt.method, "{}")
		id := fmt.Sprint(i)
		if tt.code == 0 {
			h.expectResult(id, tt.result)
			continue
		}
		m := h.expectError(id, tt.code, tt.msg)
		if m.Error.Message != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.method, m.Error.Message, tt.msg)
		}
		if data, _ := json.Marshal(m.Error.Data); tt.data != "" && string(data) != tt.data {
			t.Errorf("%s: data %s, want %s", tt.method, data, tt.data)
		}
		if tt.data == "" && m.Error.Data != nil {
			t.Errorf("%s: unexpected data %v", tt.method, m.Error.Data)
		}
	}
	// The panic was logged with its stack, and the connection lives on.
	if logs := h.log.String(); !strings.Contains(logs, "handler panicked") || !strings.Contains(logs, "goroutine ") {
		t.Errorf("panic not logged with a stack:\n%s", logs)
	}
	h.send(afterEach)
	h.expectResult("99", "[99]")
}

func TestNotificationFailuresDoNotEndTheConnection(t *testing.T) {
	var handled atomic.Int32
	handler := func(_ context.Context, req Request) (any, error) {
		handled.Add(1)
		switch req.Method {
		case "fails":
			return nil, errors.New("cannot apply event")
		case "panics":
			panic("notification kaboom")
		case "rpc error":
			return nil, InvalidParams("no")
		}
		return req.Params, nil
	}
	h := startHost(t, Options{}, handler)
	for _, method := range []string{"fails", "panics", "rpc error", "echo"} {
		h.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{}}`+"\n", method))
	}
	h.send(afterEach)
	h.expectResult("99", "[99]") // no reply came for any notification
	if n := handled.Load(); n != 5 {
		t.Errorf("handled %d requests, want 5", n)
	}
	logs := h.log.String()
	for _, want := range []string{"cannot apply event", "notification kaboom", "goroutine "} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	if err := h.conn.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
}

func TestRequestsAreHandledInWireOrder(t *testing.T) {
	const n = 1000
	var (
		mu      sync.Mutex
		seen    []int
		running atomic.Int32
	)
	handler := func(_ context.Context, req Request) (any, error) {
		if running.Add(1) != 1 {
			t.Error("handlers ran concurrently")
		}
		defer running.Add(-1)
		var p struct{ Seq int }
		if err := DecodeParams(req.Params, &p); err != nil {
			return nil, err
		}
		mu.Lock()
		seen = append(seen, p.Seq)
		mu.Unlock()
		return p.Seq, nil
	}
	h := startHost(t, Options{}, handler)
	go func() {
		var b strings.Builder
		for i := range n {
			if i%3 == 0 { // a notification
				fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"event","params":{"seq":%d}}`+"\n", i)
			} else {
				fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"event","params":{"seq":%d}}`+"\n", i, i)
			}
		}
		// A final call proves every notification before it was handled.
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"event","params":{"seq":%d}}`+"\n", n, n)
		h.send(b.String())
	}()
	for i := range n + 1 {
		if i%3 == 0 && i != n {
			continue
		}
		id := fmt.Sprint(i)
		h.expectResult(id, id)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n+1 {
		t.Fatalf("handled %d requests, want %d", len(seen), n+1)
	}
	for i, s := range seen {
		if s != i {
			t.Fatalf("request %d handled at position %d", s, i)
		}
	}
}

func TestHugeFrame(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	params := `{"text":"` + big + `"}`
	for _, framing := range []Framing{FramingNDJSON, FramingHeader} {
		t.Run(string(framing), func(t *testing.T) {
			h := startHost(t, Options{}, echo)
			h.wait = time.Minute // the race detector makes 5 MB of JSON slow
			req := `{"jsonrpc":"2.0","id":1,"method":"echo","params":` + params + `}`
			if framing == FramingHeader {
				h.sendHeader(req)
			} else {
				h.send(req + "\n")
			}
			h.expectResult("1", params)
		})
	}
}

func TestOversizedFrameIsAnswered(t *testing.T) {
	rec := &testfake.LockedBuffer{}
	h := startHost(t, Options{MaxFrameSize: 1024, Record: rec}, echo)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":["` + strings.Repeat("y", 100_000) + `"]}` + "\n")
	h.expectError("null", CodeParseError, "exceeds 1024 bytes")
	h.send(afterEach)
	h.expectResult("99", "[99]")
	if !strings.Contains(rec.String(), `"truncated":true`) {
		t.Errorf("record lacks the truncated frame:\n%.300s", rec.String())
	}
}

func TestNotify(t *testing.T) {
	h := startHost(t, Options{}, echo)
	ctx := context.Background()
	if err := h.conn.Notify(ctx, "ui.toast", map[string]any{"text": "saved", "n": 2}); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Notify(ctx, "ping", nil); err != nil {
		t.Fatal(err)
	}
	m := h.recv()
	if m.Method != "ui.toast" || m.ID != nil || string(m.Params) != `{"n":2,"text":"saved"}` {
		t.Fatalf("got %s", m.raw)
	}
	if m := h.recv(); string(m.raw) != `{"jsonrpc":"2.0","method":"ping"}` {
		t.Fatalf("got %s", m.raw)
	}
	if err := h.conn.Notify(ctx, "bad", 42); err == nil {
		t.Fatal("Notify with scalar params succeeded")
	}
	if err := h.conn.Notify(ctx, "", nil); err == nil {
		t.Fatal("Notify with no method succeeded")
	}
	if err := h.conn.Call(ctx, "", nil, nil); err == nil {
		t.Fatal("Call with no method succeeded")
	}
	h.noFrame(20 * time.Millisecond)
}
