// Package geminiapi is a scripted Gemini API on 127.0.0.1 for the test that runs Gemini CLI offline
// (GOOGLE_GEMINI_BASE_URL). POST /v1beta/models/<model>:streamGenerateContent?alt=sse answers a
// main-loop request (one that declares tools) with the script's next step, streamed as the API streams:
// a thought, then the step's parts, each chunk with partial usage and the last with the whole
// usageMetadata; :generateContent answers Gemini CLI's utility calls (the model router, a session summary)
// with one JSON object. Every request is kept with the usage it was answered with, so a test sums what
// the client was billed from the server's own log, router calls included.
package geminiapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Call is one function call the model makes.
type Call struct {
	Name string
	Args map[string]any
}

// Step is one main-loop reply: function calls, else Text.
type Step struct {
	Calls []Call
	Text  string
}

// Usage is a reply's usageMetadata: Prompt includes Cached; Thoughts and ToolUse are outside Prompt and
// Candidates.
type Usage struct {
	Prompt, Cached, Candidates, Thoughts, ToolUse int64
}

// Exchange is one request and what it was answered with.
type Exchange struct {
	Model   string // the model in the URL
	Method  string // streamGenerateContent, generateContent, …
	Body    []byte
	Utility bool // no tools declared: the router or a summary, not the agent's loop
	At      time.Time
	Usage   Usage
	Step    Step
}

// Server is the scripted API; URL is GOOGLE_GEMINI_BASE_URL.
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
	s := &Server{URL: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Add appends steps to the script.
func (s *Server) Add(steps ...Step) {
	s.mu.Lock()
	s.steps = append(s.steps, steps...)
	s.mu.Unlock()
}

// Log is every model request received so far, in order.
func (s *Server) Log() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Exchange(nil), s.log...)
}

var path = regexp.MustCompile(`^/(v1beta|v1|v1alpha)/models/([^:/]+):(\w+)$`)

type request struct {
	Tools            []json.RawMessage `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string          `json:"responseMimeType"`
		Schema           json.RawMessage `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

// usageOf is the n-th reply's usage, distinct in every kind; a main call's last step of a turn (text)
// carries a tool-use prompt too.
func usageOf(n int64, utility, text bool) Usage {
	if utility {
		return Usage{Prompt: 500 + n, Candidates: 7}
	}
	u := Usage{Prompt: 1000 + 100*n, Cached: 10 * n, Candidates: 20 + n, Thoughts: 5 * n}
	if text {
		u.ToolUse = 3
	}
	return u
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m := path.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil || (m[3] != "streamGenerateContent" && m[3] != "generateContent") {
		http.Error(w, `{"error":{"code":404,"message":"not scripted","status":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"bad json","status":"INVALID_ARGUMENT"}}`, http.StatusBadRequest)
		return
	}
	ex := Exchange{Model: m[2], Method: m[3], Body: body, Utility: len(req.Tools) == 0, At: time.Now()}
	s.mu.Lock()
	s.n++
	switch {
	case ex.Utility:
		ex.Step = Step{Text: utilityText(&req)}
	case s.next < len(s.steps):
		ex.Step = s.steps[s.next]
		s.next++
	default:
		ex.Step = Step{Text: "done"}
	}
	ex.Usage = usageOf(s.n, ex.Utility, len(ex.Step.Calls) == 0)
	n := s.n
	s.log = append(s.log, ex)
	s.mu.Unlock()
	chunks := reply(ex, n)
	if ex.Method == "generateContent" {
		w.Header().Set("Content-Type", "application/json")
		whole := chunks[len(chunks)-1]
		var parts []any
		for _, c := range chunks {
			parts = append(parts, c["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)...)
		}
		whole["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"] = parts
		_ = json.NewEncoder(w).Encode(whole)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		data, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\r\n\r\n", data)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// utilityText answers a utility call: the router's schema asks for a complexity score (a low one: the
// flash model answers the turn), any other JSON an empty object, the rest a summary.
func utilityText(req *request) string {
	switch {
	case strings.Contains(string(req.GenerationConfig.Schema), "complexity_score"):
		return `{"complexity_reasoning":"A simple read.","complexity_score":10}`
	case strings.Contains(string(req.GenerationConfig.Schema), "model_choice"):
		return `{"reasoning":"simple","model_choice":"flash"}`
	case req.GenerationConfig.ResponseMimeType == "application/json":
		return "{}"
	}
	return "Listed the files and read notes.txt"
}

// reply is the chunks of one answer: a thought first (a main call), then the step's parts; every chunk
// but the last has only the prompt's count, as the API streams usage.
func reply(ex Exchange, n int64) []map[string]any {
	var parts [][]any
	if !ex.Utility {
		parts = append(parts, []any{map[string]any{"text": "**Planning**\nI will do what the turn asks.", "thought": true}})
	}
	var last []any
	for i, c := range ex.Step.Calls {
		last = append(last, map[string]any{"functionCall": map[string]any{"id": fmt.Sprintf("call-%d-%d", n, i), "name": c.Name, "args": c.Args}})
	}
	if len(ex.Step.Calls) == 0 {
		last = append(last, map[string]any{"text": ex.Step.Text})
	}
	parts = append(parts, last)
	u := ex.Usage
	full := map[string]any{"promptTokenCount": u.Prompt, "candidatesTokenCount": u.Candidates, "cachedContentTokenCount": u.Cached,
		"thoughtsTokenCount": u.Thoughts, "totalTokenCount": u.Prompt + u.Candidates + u.Thoughts + u.ToolUse}
	if u.ToolUse > 0 {
		full["toolUsePromptTokenCount"] = u.ToolUse
	}
	var out []map[string]any
	for i, p := range parts {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": p}, "index": 0}
		usage := map[string]any{"promptTokenCount": u.Prompt, "totalTokenCount": u.Prompt}
		if i == len(parts)-1 {
			cand["finishReason"] = "STOP"
			usage = full
		}
		out = append(out, map[string]any{"candidates": []any{cand}, "modelVersion": ex.Model + "-fake-001",
			"responseId": fmt.Sprintf("resp-%d-%d", n, i), "usageMetadata": usage})
	}
	return out
}
