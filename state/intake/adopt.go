package intake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// Adopt: the ledger rebuilt from the transcript of a session the daemon joined late.

// SessionMessage is one transcript message as the host reports it.
type SessionMessage struct {
	Role        string           `json:"role"`
	Text        string           `json:"text"`
	ToolResults []any            `json:"toolResults,omitempty"`
	ToolUses    []ToolUseSummary `json:"toolUses,omitempty"`
}

// ToolUseSummary is one tool call of an assistant message. HasResult says the `result` key was
// present (even as null); Text is nil when absent or not a string.
type ToolUseSummary struct {
	Tool      string
	ToolUseID string
	Input     map[string]any
	Result    any
	HasResult bool
	Text      *string
	IsError   bool
}

// UnmarshalJSON reads {tool, tool_use_id, input, result?, text?, isError?}, numbers as json.Number. A
// text that is not a string is absent and isError counts only when it is true, as for ToolResult.
func (u *ToolUseSummary) UnmarshalJSON(data []byte) error {
	*u = ToolUseSummary{}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return fmt.Errorf("tool use: %w", err)
	}
	u.Tool = rawJSONString(fields["tool"])
	u.ToolUseID = rawJSONString(fields["tool_use_id"])
	if raw, ok := fields["input"]; ok {
		if v, err := jstext.DecodeJSON(raw); err == nil {
			u.Input, _ = v.(map[string]any)
		}
	}
	if raw, ok := fields["result"]; ok {
		v, err := jstext.DecodeJSON(raw)
		if err != nil {
			return fmt.Errorf("tool use %s: result: %w", u.ToolUseID, err)
		}
		u.Result, u.HasResult = v, true
	}
	if raw, ok := fields["text"]; ok && rawIsString(raw) {
		s := rawJSONString(raw)
		u.Text = &s
	}
	u.IsError = bytes.Equal(bytes.TrimSpace(fields["isError"]), []byte("true"))
	return nil
}

// MarshalJSON writes the wire shape back; `result` only when it was present.
func (u ToolUseSummary) MarshalJSON() ([]byte, error) {
	out := map[string]any{"tool": u.Tool, "tool_use_id": u.ToolUseID, "input": u.Input}
	if u.HasResult {
		out["result"] = u.Result
	}
	if u.Text != nil {
		out["text"] = *u.Text
	}
	if u.IsError {
		out["isError"] = true
	}
	return json.Marshal(out)
}

func rawJSONString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// isTypedPrompt: only a request starts a turn; a user message with no typed text, or carrying tool results,
// is the tool loop or a message the engine queued itself. Whitespace is Go's unicode.IsSpace.
func isTypedPrompt(m *SessionMessage) bool {
	return m.Role == "user" && strings.TrimSpace(m.Text) != "" && len(m.ToolResults) == 0
}

// AdoptRows rebuilds the newest RowCap ledger rows from a transcript. Each row is flagged recovered
// (appended last, so a flag the call earned itself still reads first); the transcript records no
// duration and no agent, so ms is 0 and the agent is main; the turn is the number of typed prompts so
// far, at least 1. A call with neither a result nor a text is still in flight and makes no row.
//
// ContextSaver spread the input under the event, so an input field named agentId became the row's agent;
// here it never does: a recovered row is always main's, as RecoveredFlag documents.
func AdoptRows(messages []SessionMessage) []state.Row {
	rows := []state.Row{}
	prompts := 0
	for i := range messages {
		m := &messages[i]
		if isTypedPrompt(m) {
			prompts++
		}
		if m.Role != "assistant" {
			continue
		}
		for j := range m.ToolUses {
			u := &m.ToolUses[j]
			if !u.HasResult && u.Text == nil {
				continue
			}
			rows = append(rows, adoptedRow(u, max(1, prompts)))
		}
	}
	if len(rows) > state.RowCap {
		rows = append([]state.Row(nil), rows[len(rows)-state.RowCap:]...) // let the older rows go
	}
	return rows
}

func adoptedRow(u *ToolUseSummary, turn int) state.Row {
	e := ToolEventOf(u.Input)
	e.Delete("agentId")
	e.Set("tool", u.Tool)
	e.Set("tool_use_id", u.ToolUseID)
	// The transcript kept what the call returned; a refusal was stored as its error text, never a deny.
	result := ToolResult{Result: u.Result, Text: u.Text, IsError: u.IsError}
	if u.IsError && result.Text == nil {
		result.Text = new("")
	}
	row := RowOf(e, result, 0, turn)
	row.Flags = append(row.Flags, state.RecoveredFlag)
	return row
}
