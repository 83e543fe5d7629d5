// Package codexapi is a scripted OpenAI Responses API on 127.0.0.1 for tests that run the real Codex CLI
// offline: each POST /v1/responses is answered, in order, by the next step of a script (assistant text
// and function calls streamed as SSE output items, then response.completed with usage), and every request
// body is kept so a test can assert on what the client sent.
package codexapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Call is one function call the model makes, e.g. exec_command with {"cmd": "ls"}.
type Call struct {
	Name      string
	Arguments map[string]any
}

// Usage is what response.completed reports for one response.
type Usage struct {
	Input, Cached, Output, Reasoning int
}

// Step is one model response: any function calls, then an optional assistant message. A Status other
// than 0 answers with that HTTP status and no stream instead (a failed request).
type Step struct {
	Calls  []Call
	Text   string
	Usage  Usage
	Status int
}

// fallback answers every request after the script ran out, so a client that asks once more (a
// compaction, a retry) gets a short final message rather than a hang.
var fallback = Step{Text: "done", Usage: Usage{Input: 100, Output: 5}}

// Request is one request the client sent: its path and raw body.
type Request struct {
	Path string
	Body []byte
}

// Input is the request body's input items, decoded loosely.
func (r Request) Input() []map[string]any {
	var body struct {
		Input []map[string]any `json:"input"`
	}
	_ = json.Unmarshal(r.Body, &body)
	return body.Input
}

// Server is the scripted API. URL is the base_url to give Codex (ends in /v1).
type Server struct {
	URL string

	ln   net.Listener
	srv  *http.Server
	mu   sync.Mutex
	next int // the script's next step
	// served counts the responses answered, intercepted ones too: a response's ids are made from it,
	// so no two responses share a call id (Codex takes a repeated call id for the same call).
	served int
	reqs   []Request
	steps  []Step
	// intercept, when set, may answer a request before the script does.
	intercept func(Request) (Step, bool)
}

// Start serves the script on a free port of 127.0.0.1 until Close.
func Start(steps ...Step) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("codexapi: listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1", ln: ln, steps: steps}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Add appends steps to the script: a test that runs the client several times scripts each run as it
// comes.
func (s *Server) Add(steps ...Step) {
	s.mu.Lock()
	s.steps = append(s.steps, steps...)
	s.mu.Unlock()
}

// Intercept answers the requests f picks with the step it returns, outside the script's order (a judge's
// fork, say); the others take the script's next step.
func (s *Server) Intercept(f func(Request) (Step, bool)) {
	s.mu.Lock()
	s.intercept = f
	s.mu.Unlock()
}

// Requests is every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Responses is the requests to /responses only, in order: one per model response.
func (s *Server) Responses() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, "/responses") {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Path: r.URL.Path, Body: body})
	var step Step
	n := s.served
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses") {
		s.served++
	}
	intercepted := false
	if s.intercept != nil && r.Method == http.MethodPost {
		step, intercepted = s.intercept(Request{Path: r.URL.Path, Body: body})
	}
	if !intercepted && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses") {
		if s.next < len(s.steps) {
			step = s.steps[s.next]
		} else {
			step = fallback
		}
		s.next++
	}
	s.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	if step.Status != 0 {
		http.Error(w, `{"error":{"message":"scripted failure","type":"server_error"}}`, step.Status)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_%d", n+1)
	writeEvent(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	for i, c := range step.Calls {
		args, _ := json.Marshal(c.Arguments)
		callID := fmt.Sprintf("call_%d_%d", n+1, i+1)
		writeEvent(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i,
			"item": map[string]any{"type": "function_call", "id": "fc_" + callID, "call_id": callID, "name": c.Name, "arguments": string(args)}})
	}
	if step.Text != "" {
		writeEvent(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": len(step.Calls),
			"item": map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_%d", n+1),
				"content": []any{map[string]any{"type": "output_text", "text": step.Text}}}})
	}
	u := step.Usage
	writeEvent(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": u.Input, "input_tokens_details": map[string]any{"cached_tokens": u.Cached},
			"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens": u.Input + u.Output}}})
}

func writeEvent(w http.ResponseWriter, name string, v any) {
	data, _ := json.Marshal(v)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
