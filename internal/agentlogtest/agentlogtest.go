// Package agentlogtest writes Claude Code transcripts in the real client's line layout (one assistant
// line per API call, with message.id, requestId, usage, tool_use blocks, cwd and timestamp, as
// harness/claude/testdata's captured transcripts have them) for tests that need sessions at chosen times, in
// chosen directories: weeks and months of history, 5-hour blocks, sessions inside a git repository made
// at test time; lists the tools a transcript read back holds; and reads any agent's fixture logs line by
// line and splices a line into a log, for the readers' one-pass tests (Lines, Spliced). Only tests import it.
package agentlogtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// Call is one API call of a session.
type Call struct {
	At                                   time.Time
	Input, Output, CacheRead, CacheWrite int64
	Tools                                []string // tool_use blocks, by name
	Model                                string   // "" the session's
}

// Session is one Claude Code session.
type Session struct {
	ID    string
	Cwd   string
	Model string
	Calls []Call
}

// slug is the project folder Claude Code names after the working directory.
var slug = regexp.MustCompile(`[^A-Za-z0-9]`)

// WriteClaude writes s as <dir>/projects/<cwd as a slug>/<id>.jsonl and returns its path: a prompt line
// a second before the first call, then one assistant line per call.
func WriteClaude(dir string, s Session) (string, error) {
	if len(s.Calls) == 0 {
		return "", fmt.Errorf("session %s: no calls", s.ID)
	}
	proj := filepath.Join(dir, "projects", slug.ReplaceAllString(s.Cwd, "-"))
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return "", err
	}
	var lines []byte
	add := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		lines = append(append(lines, b...), '\n')
		return nil
	}
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
	if err := add(userLine{Type: "user", Message: message{Role: "user", Content: "go"}, UUID: s.ID + "-u0",
		Timestamp: stamp(s.Calls[0].At.Add(-time.Second)), Cwd: s.Cwd, SessionID: s.ID}); err != nil {
		return "", err
	}
	for i, c := range s.Calls {
		model := c.Model
		if model == "" {
			model = s.Model
		}
		content := []block{{Type: "text", Text: "working"}}
		for j, name := range c.Tools {
			content = append(content, block{Type: "tool_use", ID: fmt.Sprintf("toolu_%s_%d_%d", s.ID, i, j), Name: name, Input: map[string]any{}})
		}
		u := &usage{Input: c.Input, CacheWrite: c.CacheWrite, CacheRead: c.CacheRead, Output: c.Output}
		u.CacheCreation.FiveMinutes = c.CacheWrite
		if err := add(assistantLine{
			Message:   message{ID: fmt.Sprintf("msg_%s_%d", s.ID, i), Type: "message", Role: "assistant", Model: model, Content: content, Usage: u},
			RequestID: fmt.Sprintf("req_%s_%d", s.ID, i), Type: "assistant", UUID: fmt.Sprintf("%s-a%d", s.ID, i),
			Timestamp: stamp(c.At), Cwd: s.Cwd, SessionID: s.ID}); err != nil {
			return "", err
		}
	}
	path := filepath.Join(proj, s.ID+".jsonl")
	return path, os.WriteFile(path, lines, 0o644)
}

// The lines' members are in the order Claude Code writes them (the role before the content, the
// envelope's uuid before its timestamp): agentlog's quick pass relies on it, as on the real client's.
type (
	userLine struct {
		Type      string  `json:"type"`
		Message   message `json:"message"`
		UUID      string  `json:"uuid"`
		Timestamp string  `json:"timestamp"`
		Cwd       string  `json:"cwd"`
		SessionID string  `json:"sessionId"`
	}
	assistantLine struct {
		Message   message `json:"message"`
		RequestID string  `json:"requestId"`
		Type      string  `json:"type"`
		UUID      string  `json:"uuid"`
		Timestamp string  `json:"timestamp"`
		Cwd       string  `json:"cwd"`
		SessionID string  `json:"sessionId"`
	}
	message struct {
		ID      string `json:"id,omitempty"`
		Type    string `json:"type,omitempty"`
		Role    string `json:"role"`
		Model   string `json:"model,omitempty"`
		Content any    `json:"content"`
		Usage   *usage `json:"usage,omitempty"`
	}
	block struct {
		Type  string         `json:"type"`
		Text  string         `json:"text,omitempty"`
		ID    string         `json:"id,omitempty"`
		Name  string         `json:"name,omitempty"`
		Input map[string]any `json:"input,omitempty"`
	}
	usage struct {
		Input         int64 `json:"input_tokens"`
		CacheWrite    int64 `json:"cache_creation_input_tokens"`
		CacheRead     int64 `json:"cache_read_input_tokens"`
		Output        int64 `json:"output_tokens"`
		CacheCreation struct {
			OneHour     int64 `json:"ephemeral_1h_input_tokens"`
			FiveMinutes int64 `json:"ephemeral_5m_input_tokens"`
		} `json:"cache_creation"`
	}
)

// Every returns n calls from start, step apart, each with the same usage and tools.
func Every(start time.Time, step time.Duration, n int, c Call) []Call {
	out := make([]Call, n)
	for i := range out {
		out[i] = c
		out[i].At = start.Add(time.Duration(i) * step)
	}
	return out
}

// WriteFork writes, under dir/projects/<the transcript's project>/, the Claude Code transcript at
// parentPath and a --fork-session copy of its first turn made as Claude Code makes one: its first 59
// lines (the first turn of harness/claude's calc fixture, 9 calls) with the session id replaced, then one
// call of the fork's own. It returns the two session ids.
func WriteFork(dir, parentPath string) (parent, fork string, err error) {
	proj := filepath.Join(dir, "projects", filepath.Base(filepath.Dir(parentPath)))
	if err := os.MkdirAll(proj, 0o700); err != nil {
		return "", "", err
	}
	parent = strings.TrimSuffix(filepath.Base(parentPath), ".jsonl")
	fork = "f0f0f0f0-0000-4000-8000-000000000001"
	src, err := os.ReadFile(parentPath)
	if err != nil {
		return "", "", err
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	var forked bytes.Buffer
	for _, l := range lines[:min(59, len(lines))] {
		forked.Write(bytes.ReplaceAll(l, []byte(parent), []byte(fork)))
	}
	forked.WriteString(`{"type":"assistant","sessionId":"` + fork + `","timestamp":"2026-12-01T20:00:00Z","cwd":"/home/dev/src/calc","message":{"id":"msg_fork","model":"claude-opus-5-5","usage":{"input_tokens":10,"output_tokens":1},"content":[{"type":"text","text":"ok"}]}}` + "\n")
	for name, data := range map[string][]byte{parent: src, fork: forked.Bytes()} {
		if err := os.WriteFile(filepath.Join(proj, name+".jsonl"), data, 0o600); err != nil {
			return "", "", err
		}
	}
	return parent, fork, nil
}

// Tools is the tool of every call a transcript's assistant messages made, in order.
func Tools(tr agentlog.Transcript) []string {
	var out []string
	for _, m := range tr.Messages {
		for _, u := range m.ToolUses {
			out = append(out, u.Tool)
		}
	}
	return out
}
