package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
)

// nopHost answers nothing and drops every notification.
type nopHost struct{}

func (nopHost) Fork(context.Context, session.ForkRequest) (*session.ForkResult, error) {
	return nil, nil
}
func (nopHost) Notify(string, any) {}

// fullServer is a server holding one session past RowCap with 400 loops and 50 stored patterns.
func fullServer(tb testing.TB) *Server { return fullServerWith(tb, `{"capabilities":{"fork":false}}`) }

// fullServerWith is fullServer with initialize's params.
func fullServerWith(tb testing.TB, initialize string) *Server {
	reg := testfake.NewRegistry()
	if err := reg.Update(state.StoreKey("/p"), func(any) (any, error) { return fullsession.Patterns(), nil }); err != nil {
		tb.Fatal(err)
	}
	srv := New(session.Options{Store: reg})
	srv.SetHost(nopHost{})
	ctx := context.Background()
	must := func(method string, params string) {
		if _, err := srv.Handle(ctx, rpc.Request{Method: method, Params: json.RawMessage(params)}); err != nil {
			tb.Fatal(method, err)
		}
	}
	must("initialize", initialize)
	must("session.start", `{"sessionId":"s","cwd":"/p","at":1000,"usage":{"window":1000000}}`)
	must("turn.start", `{"sessionId":"s","at":1001}`)
	for i := 0; i < fullsession.Calls; i++ {
		if _, err := srv.Handle(ctx, rpc.Request{Method: "tool.call", Params: json.RawMessage(fullsession.ToolCall("s", i))}); err != nil {
			tb.Fatal(err)
		}
	}
	return srv
}

// BenchmarkHandleToolCall is one tool.call handled in-process on a full session: the daemon's own
// share of a round trip, without the pipes.
func BenchmarkHandleToolCall(b *testing.B) { benchToolCalls(b, fullServer(b)) }

// benchToolCalls is b.N more calls of the full session's kind handled by srv.
func benchToolCalls(b *testing.B, srv *Server) {
	params := make([]json.RawMessage, 4096)
	for i := range params {
		params[i] = json.RawMessage(fullsession.ToolCall("s", 10_000+i))
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

// BenchmarkTurnComplete is a main-loop turn.complete on a full session, with the detectors off (the
// seed's behaviour) and on: the detectors read the whole ledger at each turn's end, never on a tool call.
func BenchmarkTurnComplete(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run("detectors="+strconv.FormatBool(on), func(b *testing.B) {
			srv := fullServerWith(b, `{"capabilities":{"fork":false},"detectors":`+strconv.FormatBool(on)+`}`)
			params := json.RawMessage(`{"sessionId":"s","at":2000,"durationMs":5000,"reason":"answer","usage":` +
				`{"input_tokens":100,"output_tokens":10,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := srv.Handle(ctx, rpc.Request{Method: "turn.complete", Params: params}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHandleToolCallDetectors is BenchmarkHandleToolCall with the detectors on: what keeping each
// call's command or Grep input beside its row costs the tool call's path.
func BenchmarkHandleToolCallDetectors(b *testing.B) {
	benchToolCalls(b, fullServerWith(b, `{"capabilities":{"fork":false},"detectors":true}`))
}

// BenchmarkConnToolCall is tool.call through an rpc.Conn on a full session, frames back to back as a
// host's replay sends them: with tool.call's params read in the frame's own pass (the daemon's wiring)
// and without (the envelope scan skips them, the handler reads them).
func BenchmarkConnToolCall(b *testing.B) {
	for _, c := range []struct {
		name    string
		readers map[string]rpc.ParamsReader
	}{{"readers", ParamsReaders()}, {"handler", nil}} {
		b.Run(c.name, func(b *testing.B) {
			srv := fullServer(b)
			var in bytes.Buffer
			for i := range b.N {
				fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}`+"\n", i, fullsession.ToolCall("s", 10_000+i%4096))
			}
			conn := rpc.NewConn(&in, io.Discard, rpc.Options{Framing: rpc.FramingNDJSON, ParamsReaders: c.readers})
			b.ReportAllocs()
			b.ResetTimer()
			conn.Serve(context.Background(), srv.HandleConn)
			<-conn.Done()
		})
	}
}
