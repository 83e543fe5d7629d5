// Package chatapi is a scripted OpenAI-compatible Chat Completions API on 127.0.0.1 for the tests that
// run OpenCode and Qwen Code offline. Each POST …/chat/completions that offers tools (a main-loop call)
// is answered by the script's next step — tool calls or text — streamed as the API streams (a role chunk,
// the tool call's arguments in two deltas or the text in pieces, the finish chunk, then a chunk with no
// choices and the usage, then [DONE]), or as one JSON object when the request does not stream. A request
// with no tools (a helper: OpenCode's session title) gets a short text. Every request is kept with the
// usage it was answered with, so a test sums what the client was billed from the server's own log.
package chatapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Call is one tool call the model makes.
type Call struct {
	Name string
	Args map[string]any
}

// Step is one main-loop reply: tool calls, else Text.
type Step struct {
	Calls []Call
	Text  string
}

// Usage is what one reply reports, with the API's meanings: Prompt includes Cached, Completion includes
// Reasoning.
type Usage struct {
	Prompt, Cached, Completion, Reasoning int64
}

// Exchange is one request and what it was answered with.
type Exchange struct {
	Path   string
	Body   []byte
	Helper bool // no tools offered: a helper call (a title), not the agent's loop
	Model  string
	Usage  Usage // zero for a request that was not a completion
	Step   Step
}

// Server is the scripted API; URL is the base URL to configure (it ends in /v1).
type Server struct {
	URL   string
	srv   *http.Server
	mu    sync.Mutex
	steps []Step
	next  int
	log   []Exchange
	n     int64
}

// Serve answers on ln (a listener the test made, inside its network namespace) until Close.
func Serve(ln net.Listener) *Server {
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1"}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Add appends steps to the script, for the runs to come.
func (s *Server) Add(steps ...Step) {
	s.mu.Lock()
	s.steps = append(s.steps, steps...)
	s.mu.Unlock()
}

// Log is every request received so far, in order.
func (s *Server) Log() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Exchange(nil), s.log...)
}

// usageOf is the k-th completion's usage: distinct in every kind, so a sum that counts a call twice, or
// a kind in another's place, shows.
func usageOf(k int64) Usage {
	return Usage{Prompt: 1000*k + 234, Cached: 100 * k, Completion: 40 + k, Reasoning: 3}
}

type request struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Tools  []json.RawMessage `json:"tools"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	ex := Exchange{Path: r.URL.Path, Body: body}
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.record(ex)
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock-model", "object": "model"}}})
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		s.record(ex)
		http.Error(w, `{"error":{"message":"not scripted"}}`, http.StatusNotFound)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(ex)
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	ex.Model, ex.Helper = req.Model, len(req.Tools) == 0
	s.mu.Lock()
	s.n++
	ex.Usage = usageOf(s.n)
	switch {
	case ex.Helper:
		ex.Step = Step{Text: "Mock session title"}
	case s.next < len(s.steps):
		ex.Step = s.steps[s.next]
		s.next++
	default:
		ex.Step = Step{Text: "done"} // past the script: a client that asks again still ends
	}
	id := fmt.Sprintf("chatcmpl-mock%03d", s.n)
	s.log = append(s.log, ex)
	s.mu.Unlock()
	if req.Stream {
		stream(w, id, req.Model, ex.Step, ex.Usage)
		return
	}
	writeJSON(w, completion(id, req.Model, ex.Step, ex.Usage))
}

func (s *Server) record(ex Exchange) {
	s.mu.Lock()
	s.log = append(s.log, ex)
	s.mu.Unlock()
}

func (u Usage) wire() map[string]any {
	return map[string]any{"prompt_tokens": u.Prompt, "completion_tokens": u.Completion, "total_tokens": u.Prompt + u.Completion,
		"prompt_tokens_details": map[string]any{"cached_tokens": u.Cached}, "completion_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning}}
}

func toolCalls(id string, step Step) []any {
	var out []any
	for i, c := range step.Calls {
		args, _ := json.Marshal(c.Args)
		out = append(out, map[string]any{"index": i, "id": fmt.Sprintf("call_%s_%d", id, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": string(args)}})
	}
	return out
}

func completion(id, model string, step Step, u Usage) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil}
	finish := "stop"
	if len(step.Calls) > 0 {
		msg["tool_calls"], finish = toolCalls(id, step), "tool_calls"
	} else {
		msg["content"] = step.Text
	}
	return map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": u.wire()}
}

// stream writes the reply as server-sent events, as the API streams a completion with
// stream_options.include_usage.
func stream(w http.ResponseWriter, id, model string, step Step, u Usage) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	chunk := func(choices []any, extra map[string]any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model, "choices": choices}
		for k, v := range extra {
			c[k] = v
		}
		data, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	chunk(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	finish := "stop"
	if len(step.Calls) > 0 {
		finish = "tool_calls"
		for i, tc := range toolCalls(id, step) {
			call := tc.(map[string]any)
			fn := call["function"].(map[string]any)
			args := fn["arguments"].(string)
			half := len(args) / 2
			chunk(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": call["id"], "type": "function",
				"function": map[string]any{"name": fn["name"], "arguments": args[:half]}}}}, nil), nil)
			chunk(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": args[half:]}}}}, nil), nil)
		}
	} else {
		words := strings.SplitAfter(step.Text, " ")
		for i := 0; i < len(words); i += 4 {
			chunk(delta(map[string]any{"content": strings.Join(words[i:min(i+4, len(words))], "")}, nil), nil)
		}
	}
	chunk(delta(map[string]any{}, finish), nil)
	chunk([]any{}, map[string]any{"usage": u.wire()})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
