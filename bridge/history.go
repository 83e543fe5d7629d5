package bridge

import (
	"bytes"
	"encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state/intake"
)

// History reads a Claude Code transcript (or a Codex rollout) as the messages session.start adopts:
// the person's prompts, and each assistant message's tool calls with what they returned. A daemon that
// joins a session late (a resume, a restart) rebuilds its ledger from them. A Claude Code transcript is
// read by the same reader `saverd audit` uses.
func History(path string) ([]intake.SessionMessage, error) {
	head, err := safefile.Head(path, 4096)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(head, []byte(`"session_meta"`)) {
		tr, err := agentlog.ReadClaudeTranscript(path, agentlog.Options{})
		return tr.Messages, err
	}
	var msgs []intake.SessionMessage
	codex := codexHistory{where: map[string][2]int{}}
	_, err = eachLine(path, 0, func(b []byte) {
		var l line
		if json.Unmarshal(b, &l) == nil && l.Payload != nil {
			msgs = codex.add(msgs, l)
		}
	})
	return msgs, err
}

type block struct {
	Type string `json:"type"`
	Text string `json:"text"`
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

func (c codexHistory) add(msgs []intake.SessionMessage, l line) []intake.SessionMessage {
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
		return append(msgs, intake.SessionMessage{Role: "user", Text: text})
	case "function_call", "custom_tool_call":
		tool, in := CodexTool(p.Name, p.Arguments, p.Input)
		c.where[p.CallID] = [2]int{len(msgs), 0}
		return append(msgs, intake.SessionMessage{Role: "assistant", ToolUses: []intake.ToolUseSummary{{Tool: tool, ToolUseID: p.CallID, Input: in}}})
	case "function_call_output", "custom_tool_call_output":
		at, ok := c.where[p.CallID]
		if !ok {
			return msgs
		}
		u := &msgs[at[0]].ToolUses[at[1]]
		t := resultText(p.Output)
		u.Text, u.HasResult = &t, true
		return append(msgs, intake.SessionMessage{Role: "user", ToolResults: []any{p.CallID}})
	}
	return msgs
}

// CodexTool names a Codex call as the ledger reads tools: a shell command is Bash with its command,
// as Codex's own hooks name it; apply_patch keeps its name and its patch.
func CodexTool(name, arguments, input string) (string, map[string]any) {
	switch name {
	case "exec_command", "shell", "local_shell", "container.exec", "shell_command":
		var args map[string]any
		if e, err := intake.ToolEventFromJSON([]byte(arguments)); err == nil {
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
	if e, err := intake.ToolEventFromJSON([]byte(arguments)); err == nil {
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
