package handlers

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// FuzzHandle sends arbitrary params to every method of a live session: the daemon answers each with a
// result or an error, and never panics (a panic would be a -32603 where bad input deserves a -32602).
func FuzzHandle(f *testing.F) {
	seeds := []string{
		`{"sessionId":"s","ms":5,"event":{"tool":"Bash","tool_use_id":"t","command":"npm test | tail"},"result":{"text":"ok"}}`,
		`{"sessionId":"s","ms":1,"event":{"tool":"Workflow","tool_use_id":"w"},"result":{"result":{"taskType":"local_workflow","runId":"r","workflowName":"n","transcriptDir":"/nonexistent"}}}`,
		`{"sessionId":"s","command":"saver","args":"fix 1 do it"}`,
		`{"sessionId":"s","action":"write","artifact":{"patternId":"x","kind":"skill"}}`,
		`{"sessionId":"s","durationMs":5,"answer":"a","isAborted":false,"reason":"answer","context":{"window":1,"tokens":2}}`,
		`{"sessionId":"s","text":"why is this so slow","origin":{"kind":"composer"}}`,
		`{"sessionId":"s","view":"pane","width":-3}`,
		`{"sessionId":"s","cwd":"/tmp","messages":[{"role":"assistant","toolUses":[{"tool":"Read","tool_use_id":"a","input":{"file_path":"/x"},"text":"y"}]}]}`,
		`[]`, `null`, `{"sessionId":5}`, `{"sessionId":"s","spawnId":"spawn-1","agentId":"a"}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	methods := make([]string, 0)
	srv := New(session.Options{Synchronous: true})
	for m := range srv.table {
		if m != "exit" && m != "shutdown" && m != "impact.query" && m != "impact.pending" {
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	f.Fuzz(func(t *testing.T, pick uint8, params []byte) {
		if !json.Valid(params) {
			return // the rpc layer answers a frame that is not JSON before any handler sees it
		}
		srv := New(session.Options{Synchronous: true, Store: testfake.NewRegistry()})
		srv.SetHost(nopHost{})
		ctx := context.Background()
		if _, err := srv.Handle(ctx, rpc.Request{Method: "initialize", Params: json.RawMessage(`{"capabilities":{"fork":true}}`)}); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.Handle(ctx, rpc.Request{Method: "session.start", Params: json.RawMessage(`{"sessionId":"s","cwd":"` + t.TempDir() + `"}`)}); err != nil {
			t.Fatal(err)
		}
		method := methods[int(pick)%len(methods)]
		if method == "tool.call" {
			agreeToolCall(t, params)
		}
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s %s panicked: %v", method, params, r)
			}
		}()
		_, _ = srv.Handle(ctx, rpc.Request{Method: method, Params: params})
		// The session still answers.
		if _, err := srv.Handle(ctx, rpc.Request{Method: "view.pane", Params: json.RawMessage(`{"sessionId":"s"}`)}); err != nil && method != "session.end" {
			t.Fatalf("after %s %s: view.pane: %v", method, params, err)
		}
	})
}
