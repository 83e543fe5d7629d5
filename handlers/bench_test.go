package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// nopHost answers nothing and drops every notification.
type nopHost struct{}

func (nopHost) Fork(context.Context, ForkRequest) (*ForkResult, error) { return nil, nil }
func (nopHost) Notify(string, any)                                     {}

// memRegistry is an in-memory Registry.
type memRegistry struct{ values map[string]any }

func (m *memRegistry) Get(key string) (any, error) { return m.values[key], nil }
func (m *memRegistry) Update(key string, merge func(any) (any, error)) error {
	v, err := merge(m.values[key])
	if err == nil {
		// Round-trip through JSON, as the disk store does.
		b, _ := json.Marshal(v)
		var back any
		_ = json.Unmarshal(b, &back)
		m.values[key] = back
	}
	return err
}

func benchToolParams(session string, i int) json.RawMessage {
	event := map[string]any{"tool": "Bash", "tool_use_id": fmt.Sprintf("t%d", i), "command": fmt.Sprintf("cat src/file%d.ts", i%300)}
	if i%7 == 0 {
		event["command"] = fmt.Sprintf("npm test suite-%02d", i%state.MaxPatterns)
	}
	if i%10 == 0 {
		event["agentId"] = fmt.Sprintf("agent-%d", (i/10)%state.LoopCap)
	}
	p, _ := json.Marshal(map[string]any{"sessionId": session, "at": 1_000_000 + i, "ms": 40, "event": event, "result": map[string]any{"text": strings.Repeat("x", 200)}})
	return p
}

// fullServer is a server holding one session past RowCap with 400 loops and 50 stored patterns.
func fullServer(tb testing.TB) *Server {
	var stored []any
	for i := 0; i < state.MaxPatterns; i++ {
		stored = append(stored, map[string]any{
			"id": fmt.Sprintf("execution:habit-%02d", i), "category": "execution", "kind": fmt.Sprintf("Claude keeps running check %d", i),
			"signature": map[string]any{"tool": "Bash", "key": fmt.Sprintf("test:npm test suite-%02d", i)}, "why": "ran twice",
			"alternative": "run it once per phase", "confidence": 0.8, "proposal": nil, "estTokensPerTurn": nil, "lastDecision": nil, "lean": nil,
		})
	}
	reg := &memRegistry{values: map[string]any{state.StoreKey("/p"): stored}}
	srv := New(Options{Store: reg})
	srv.SetHost(nopHost{})
	ctx := context.Background()
	must := func(method string, params string) {
		if _, err := srv.Handle(ctx, rpc.Request{Method: method, Params: json.RawMessage(params)}); err != nil {
			tb.Fatal(method, err)
		}
	}
	must("initialize", `{"capabilities":{"fork":false}}`)
	must("session.start", `{"sessionId":"s","cwd":"/p","at":1000,"usage":{"window":1000000}}`)
	must("turn.start", `{"sessionId":"s","at":1001}`)
	for i := 0; i < state.RowCap+500; i++ {
		if _, err := srv.Handle(ctx, rpc.Request{Method: "tool.call", Params: benchToolParams("s", i)}); err != nil {
			tb.Fatal(err)
		}
	}
	return srv
}

// BenchmarkHandleToolCall is one tool.call handled in-process on a full session: the daemon's own
// share of a round trip, without the pipes.
func BenchmarkHandleToolCall(b *testing.B) {
	srv := fullServer(b)
	params := make([]json.RawMessage, 4096)
	for i := range params {
		params[i] = benchToolParams("s", 10_000+i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := srv.Handle(ctx, rpc.Request{Method: "tool.call", Params: params[i%len(params)]}); err != nil {
			b.Fatal(err)
		}
	}
}
