package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
)

// ledgerTools names Gemini CLI's tools as the ledger does (state/intake keys and classes rows by Claude
// Code's names and fields).
var ledgerTools = map[string]agentlog.LedgerTool{
	"run_shell_command":   {Name: "Bash"},
	"read_file":           {Name: "Read", Keys: map[string]string{"absolute_path": "file_path"}},
	"write_file":          {Name: "Write"},
	"replace":             {Name: "Edit"},
	"glob":                {Name: "Glob", Keys: map[string]string{"dir_path": "path"}},
	"search_file_content": {Name: "Grep", Keys: map[string]string{"dir_path": "path"}},
	"grep_search":         {Name: "Grep", Keys: map[string]string{"dir_path": "path"}},
}

// History reads the session sessionID of the log at path (and of its other files) for an audit: each
// typed prompt a turn, each tool call with its result, each gemini message with tokens an API call of
// its turn. A rewind drops what it drops from the conversation.
func (Logs) History(path, sessionID string, opt agentlog.Options) (agentlog.Transcript, error) {
	if _, err := os.Lstat(path); err != nil {
		return agentlog.Transcript{}, err
	}
	var s *session
	for _, c := range parse(siblings(path), opt, true) {
		if c.id == sessionID || sessionID == "" {
			s = c
			break
		}
	}
	if s == nil {
		return agentlog.Transcript{}, fmt.Errorf("%s: no Gemini CLI session %s in it", path, sessionID)
	}
	h := agentlog.NewHistory(string(harness.Gemini), s.id)
	h.SetCwd(findRoot(filepath.Dir(s.files[0]), s.projectHash))
	h.Warn(s.warn...)
	for _, id := range s.order {
		m := s.msgs[id]
		switch m.typ {
		case "user":
			if text, ok := typed(m.Content); ok {
				h.Prompt(text, m.at)
			}
		case "gemini":
			if m.tok != nil {
				h.Call(m.model, m.tok.usage(), m.at)
			}
			for _, tc := range m.ToolCalls {
				callHistory(h, &tc, m.at)
			}
		}
	}
	return h.Transcript()
}

// callHistory adds one tool call and what it returned.
func callHistory(h *agentlog.History, tc *toolCall, at time.Time) {
	var in map[string]any
	_ = json.Unmarshal(tc.Args, &in) // arguments that are no object are no input
	tool, in := agentlog.Ledger(ledgerTools, tc.Name, in)
	h.ToolUse(tc.ID, tool, in, at)
	if len(tc.Result) == 0 && tc.Status == "" {
		return // still running when the log was written
	}
	done := at
	if t, err := time.Parse(time.RFC3339Nano, tc.Timestamp); err == nil {
		done = t
	}
	h.ToolResult(tc.ID, resultText(tc.Result), tc.Status != "" && tc.Status != "success", done)
}

// resultText is what a tool returned to the model: its response's output (or error), else the response.
func resultText(parts []part) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Text != nil:
			b.WriteString(*p.Text)
		case p.Response != nil:
			var r struct {
				Output *string `json:"output"`
				Error  *string `json:"error"`
			}
			switch {
			case json.Unmarshal(p.Response.Response, &r) != nil:
				b.Write(p.Response.Response)
			case r.Output != nil:
				b.WriteString(*r.Output)
			case r.Error != nil:
				b.WriteString(*r.Error)
			default:
				b.Write(p.Response.Response)
			}
		}
	}
	return b.String()
}

// typed is the text of a prompt the person typed: a user message of text parts, not a tool's response
// and not the session context Gemini CLI writes first.
func typed(content json.RawMessage) (string, bool) {
	var text string
	if json.Unmarshal(content, &text) != nil {
		var parts []part
		if json.Unmarshal(content, &parts) != nil {
			return "", false
		}
		for _, p := range parts {
			if p.Response != nil {
				return "", false
			}
			if p.Text != nil {
				text += *p.Text
			}
		}
	}
	text = strings.TrimSpace(text)
	if text == "" || strings.HasPrefix(text, "<session_context>") {
		return "", false
	}
	return text, true
}
