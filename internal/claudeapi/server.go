package claudeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// maxBody bounds one request body; Claude Code's largest requests (a long session with its tools) are a
// few MB.
const maxBody = 64 << 20

// Server is a scripted Anthropic Messages API on a loopback port. Point ANTHROPIC_BASE_URL at URL.
type Server struct {
	// URL is the base URL, http://127.0.0.1:PORT, without a trailing slash.
	URL string

	t      testing.TB
	script Script
	http   *httptest.Server

	mu       sync.Mutex
	seq      int // messages requests received
	ids      int // ids made (messages, tool uses, request ids)
	requests []Request
	others   []Call
}

// Call is a request to an endpoint other than POST /v1/messages, kept so a test can see what else the
// client asked.
type Call struct {
	Method string
	Path   string
	Query  string
	Body   []byte
	Status int // what the server answered
}

// New starts a Server on 127.0.0.1:0 in the test's own network namespace; it closes when the test ends.
func New(t testing.TB, script Script) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("claudeapi: listen on loopback: %v", err)
	}
	return Serve(t, ln, script)
}

// Serve starts a Server on ln (from Netns.Listen, to serve inside an isolated network namespace); it
// closes ln and itself when the test ends.
func Serve(t testing.TB, ln net.Listener, script Script) *Server {
	t.Helper()
	s := &Server{t: t, script: script}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.messages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.countTokens)
	mux.HandleFunc("/", s.notFound)
	s.http = &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	s.http.Start()
	s.URL = s.http.URL
	t.Cleanup(s.Close)
	return s
}

// Close stops the server and waits for the requests in flight. Calling it again does nothing.
func (s *Server) Close() {
	s.http.Close()
}

// Requests are the messages requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Others are the requests to any other endpoint, in arrival order.
func (s *Server) Others() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.others...)
}

// newID is prefix + a number unique on this server, shaped like the API's ids (msg_01..., toolu_01...).
func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_01%022d", prefix, s.ids)
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		s.other(w, r, body, http.StatusRequestEntityTooLarge, "request_too_large", fmt.Sprintf("read request body: %v", err))
		return
	}
	req, err := decodeRequest(body)
	if err != nil {
		s.other(w, r, body, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	req.Path, req.Query, req.Header = r.URL.Path, r.URL.RawQuery, r.Header.Clone()
	s.mu.Lock()
	s.seq++
	req.Seq = s.seq
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	reply := s.script(req)
	w.Header().Set("request-id", s.newID("req"))
	if reply.Status != 0 {
		s.t.Logf("claudeapi: request %d answered with error %d: %s", req.Seq, reply.Status, reply.ErrorMessage)
		writeError(w, reply.Status, reply.ErrorType, reply.ErrorMessage)
		return
	}
	msg, err := s.message(req, reply)
	if err != nil {
		s.t.Errorf("claudeapi: request %d: %v", req.Seq, err)
		writeError(w, http.StatusInternalServerError, "api_error", err.Error())
		return
	}
	if req.Stream {
		stream(w, msg)
		return
	}
	writeJSON(w, http.StatusOK, msg)
}

// countTokens answers POST /v1/messages/count_tokens with the same estimate a reply's usage defaults to.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil || !json.Valid(body) {
		s.other(w, r, body, http.StatusBadRequest, "invalid_request_error", "count_tokens: body is not JSON")
		return
	}
	s.record(r, body, http.StatusOK)
	writeJSON(w, http.StatusOK, map[string]int{"input_tokens": estimateTokens(len(body))})
}

// notFound is the API's answer to a path it does not serve.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	s.other(w, r, body, http.StatusNotFound, "not_found_error", "Not Found")
}

func (s *Server) other(w http.ResponseWriter, r *http.Request, body []byte, status int, errType, message string) {
	s.record(r, body, status)
	writeError(w, status, errType, message)
}

func (s *Server) record(r *http.Request, body []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.others = append(s.others, Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body, Status: status})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client hung up: nothing to tell it
}

func writeError(w http.ResponseWriter, status int, errType, message string) {
	type apiError struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	writeJSON(w, status, struct {
		Type  string   `json:"type"`
		Error apiError `json:"error"`
	}{"error", apiError{errType, message}})
}

// estimateTokens is about four characters per token, at least one.
func estimateTokens(chars int) int {
	return max(1, (chars+3)/4)
}
