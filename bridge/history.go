package bridge

import (
	"encoding/json"

	"github.com/saverd/saverd/state"
)

// History reads a Claude Code transcript (or a Codex rollout) as the messages session.start adopts:
// the person's prompts, and each assistant message's tool calls with what they returned. A daemon that
// joins a session late (a resume, a restart) rebuilds its ledger from them.
func History(path string) ([]state.SessionMessage, error) {
	var msgs []state.SessionMessage
	// Where each tool_use id's summary lives, so its result (written on a later line) lands on it.
	where := map[string][2]int{}
	codex := codexHistory{where: where}
	_, err := eachLine(path, 0, func(b []byte) {
		var l line
		if json.Unmarshal(b, &l) != nil {
			return
		}
		if l.Payload != nil {
			msgs = codex.add(msgs, l)
			return
		}
		if l.Message == nil || l.IsSidechain {
			return
		}
		switch l.Type {
		case "assistant":
			msgs = assistantTools(msgs, l, where)
		case "user":
			msgs = userMessage(msgs, l, where)
		}
	})
	return msgs, err
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
}

func assistantTools(msgs []state.SessionMessage, l line, where map[string][2]int) []state.SessionMessage {
	var blocks []block
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return msgs
	}
	var uses []state.ToolUseSummary
	for _, b := range blocks {
		if b.Type != "tool_use" || b.ID == "" {
			continue
		}
		var in map[string]any
		if e, err := state.ToolEventFromJSON(b.Input); err == nil {
			in = e
		}
		uses = append(uses, state.ToolUseSummary{Tool: b.Name, ToolUseID: b.ID, Input: in})
	}
	if len(uses) == 0 {
		return msgs
	}
	// One message per line: Claude Code writes each content block of a response on its own line.
	for j, u := range uses {
		where[u.ToolUseID] = [2]int{len(msgs), j}
	}
	return append(msgs, state.SessionMessage{Role: "assistant", ToolUses: uses})
}

func userMessage(msgs []state.SessionMessage, l line, where map[string][2]int) []state.SessionMessage {
	var text string
	if json.Unmarshal(l.Message.Content, &text) == nil {
		return append(msgs, state.SessionMessage{Role: "user", Text: text})
	}
	var blocks []block
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return msgs
	}
	var results []any
	for _, b := range blocks {
		switch b.Type {
		case "text":
			text += b.Text
		case "tool_result":
			results = append(results, b.ToolUseID)
			at, ok := where[b.ToolUseID]
			if !ok {
				continue
			}
			u := &msgs[at[0]].ToolUses[at[1]]
			t := resultText(b.Content)
			u.Text, u.IsError, u.HasResult = &t, b.IsError, true
			if len(l.ToolUseResult) > 0 {
				var v any
				if e, err := state.ToolEventFromJSON(l.ToolUseResult); err == nil {
					v = map[string]any(e)
				} else if json.Unmarshal(l.ToolUseResult, &v) != nil {
					v = nil
				}
				u.Result = v
			}
		}
	}
	return append(msgs, state.SessionMessage{Role: "user", Text: text, ToolResults: results})
}

// resultText is a tool_result's content as the model read it: a string, or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	out := ""
	for i, b := range blocks {
		if b.Type == "text" {
			if i > 0 {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}

// codexHistory reads a rollout's calls: function_call / custom_tool_call items and their outputs.
type codexHistory struct {
	where map[string][2]int
}

func (c codexHistory) add(msgs []state.SessionMessage, l line) []state.SessionMessage {
	if l.Type != "response_item" {
		return msgs
	}
	var p struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Name      string          `json:"name"`
		CallID    string          `json:"call_id"`
		Arguments string          `json:"arguments"`
		Input     string          `json:"input"`
		Output    json.RawMessage `json:"output"`
		Content   []block         `json:"content"`
	}
	if json.Unmarshal(l.Payload, &p) != nil {
		return msgs
	}
	switch p.Type {
	case "message":
		if p.Role != "user" {
			return msgs
		}
		text := ""
		for _, b := range p.Content {
			text += b.Text
		}
		return append(msgs, state.SessionMessage{Role: "user", Text: text})
	case "function_call", "custom_tool_call":
		tool, in := CodexTool(p.Name, p.Arguments, p.Input)
		c.where[p.CallID] = [2]int{len(msgs), 0}
		return append(msgs, state.SessionMessage{Role: "assistant", ToolUses: []state.ToolUseSummary{{Tool: tool, ToolUseID: p.CallID, Input: in}}})
	case "function_call_output", "custom_tool_call_output":
		at, ok := c.where[p.CallID]
		if !ok {
			return msgs
		}
		u := &msgs[at[0]].ToolUses[at[1]]
		t := resultText(p.Output)
		u.Text, u.HasResult = &t, true
		return append(msgs, state.SessionMessage{Role: "user", ToolResults: []any{p.CallID}})
	}
	return msgs
}

// CodexTool names a Codex call as the ledger reads tools: a shell command is Bash with its command,
// as Codex's own hooks name it; apply_patch keeps its name and its patch.
func CodexTool(name, arguments, input string) (string, map[string]any) {
	switch name {
	case "exec_command", "shell", "local_shell", "container.exec", "shell_command":
		var args map[string]any
		if e, err := state.ToolEventFromJSON([]byte(arguments)); err == nil {
			args = e
		}
		in := map[string]any{}
		switch cmd := args["cmd"].(type) {
		case string:
			in["command"] = cmd
		}
		if cmd, ok := args["command"]; ok {
			switch v := cmd.(type) {
			case string:
				in["command"] = v
			case []any:
				in["command"] = joinArgv(v)
			}
		}
		return "Bash", in
	case "apply_patch":
		return "apply_patch", map[string]any{"patch": input}
	}
	var in map[string]any
	if e, err := state.ToolEventFromJSON([]byte(arguments)); err == nil {
		in = e
	} else if input != "" {
		in = map[string]any{"input": input}
	}
	return name, in
}

func joinArgv(v []any) string {
	out := ""
	for i, a := range v {
		s, _ := a.(string)
		if i > 0 {
			out += " "
		}
		out += s
	}
	// `bash -lc "<script>"` is how Codex wraps a command: the script is what ran.
	if len(v) == 3 {
		if s, _ := v[1].(string); s == "-lc" || s == "-c" {
			out, _ = v[2].(string)
		}
	}
	return out
}
