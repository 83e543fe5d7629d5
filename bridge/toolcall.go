package bridge

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/saverd/saverd/state/intake"
)

// ToolCall is a PostToolUse / PostToolUseFailure payload as tool.call takes it.
type ToolCall struct {
	Event  intake.ToolEvent
	Result intake.ToolResult
	Ms     int64
}

// ToolCallOf builds the flat event (the tool's input beside `tool`, `tool_use_id` and, for a
// subagent's call, `agentId`) and the result: the structured tool_response, and the text the model
// saw, rebuilt from it. A failure is an error row whose text is the error.
func ToolCallOf(p Payload, agentID string) (ToolCall, error) { return toolCallOf(p, agentID, true) }

// toolCallOf is ToolCallOf; measure false decodes a long output whole (the reference the measured one is
// held to).
func toolCallOf(p Payload, agentID string, measure bool) (ToolCall, error) {
	var e intake.ToolEvent // given by the Sets below when there is no tool_input
	if len(p.ToolInput) > 0 && string(p.ToolInput) != "null" {
		in, err := intake.ToolEventFromJSON(p.ToolInput)
		if err != nil {
			return ToolCall{}, fmt.Errorf("%s payload: tool_input: %w", p.Event, err)
		}
		e = in
	}
	e.Delete("agentId") // an argument of that name must never move the row to another loop
	e.Set("tool", p.ToolName)
	e.Set("tool_use_id", p.ToolUseID)
	if agentID != "" {
		e.Set("agentId", agentID)
	}
	var ms int64
	if p.DurationMs != nil && *p.DurationMs > 0 {
		ms = int64(*p.DurationMs + 0.5)
	}
	if p.Event == PostToolUseFailure {
		text := ""
		if p.Error != nil {
			text = *p.Error
		}
		return ToolCall{Event: e, Result: intake.ToolResult{Text: &text, IsError: true}, Ms: ms}, nil
	}
	if r, ok := p.measuredResult(); ok {
		return ToolCall{Event: e, Result: r, Ms: ms}, nil // measured in the frame (ReadPayload)
	}
	if measure && len(p.ToolResponse) > measureFrom {
		// Megabytes of output: its text measured where it lies, never copied (measure.go).
		if r, ok := measuredCall(p.ToolName, p.ToolResponse); ok {
			return ToolCall{Event: e, Result: r, Ms: ms}, nil
		}
	}
	var res any
	if len(p.ToolResponse) > 0 {
		v, err := intake.ObjectFromJSON(p.ToolResponse)
		switch {
		case err == nil:
			res = v
		default:
			// Not an object (Codex sends the output as a string): kept as the value it is.
			var s any
			if json.Unmarshal(p.ToolResponse, &s) != nil {
				return ToolCall{}, fmt.Errorf("%s payload: tool_response is not JSON", p.Event)
			}
			res = s
		}
	}
	text := TextOf(p.ToolName, res)
	return ToolCall{Event: e, Result: intake.ToolResult{Result: res, Text: &text}, Ms: ms}, nil
}

// TextOf is the text a tool's result put in the model's context, as near as the structured result
// tells it: the ledger counts its length and shows its head.
func TextOf(tool string, res any) string {
	switch v := res.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]any:
		return textOfRecord(tool, v)
	case []any:
		return textOfBlocks(v)
	}
	b, _ := json.Marshal(res)
	return string(b)
}

func textOfRecord(tool string, r map[string]any) string {
	str := func(k string) string { s, _ := r[k].(string); return s }
	switch tool {
	case "Bash":
		out, errText := str("stdout"), str("stderr")
		if errText != "" {
			if out != "" {
				return out + "\n" + errText
			}
			return errText
		}
		return out
	case "Read":
		if f, ok := r["file"].(map[string]any); ok {
			if c, ok := f["content"].(string); ok {
				return numbered(c, f["startLine"])
			}
		}
	case "Edit", "MultiEdit":
		return "The file " + str("filePath") + " has been updated."
	case "Write":
		return "File created successfully at: " + str("filePath")
	case "Grep":
		if c := str("content"); c != "" {
			return c
		}
		return filesText(r)
	case "Glob":
		return filesText(r)
	case "Agent", "Task":
		if c, ok := r["content"].([]any); ok {
			return textOfBlocks(c)
		}
		if str("status") == "async_launched" {
			return "Async agent launched successfully. agentId: " + str("agentId")
		}
	}
	for _, k := range []string{"output", "result", "content", "text", "stdout"} {
		switch v := r[k].(type) {
		case string:
			return v
		case []any:
			return textOfBlocks(v)
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// numbered is a file's content as Read shows it to the model: each line after its number and a tab
// (observed: "1\texport function add…\n2\t" for a file of one line and its final newline).
func numbered(content string, start any) string {
	n := startLineOf(start)
	var b strings.Builder
	b.Grow(len(content) + 8*strings.Count(content, "\n") + 8)
	for i, line := range strings.Split(content, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(n + i))
		b.WriteByte('\t')
		b.WriteString(line)
	}
	return b.String()
}

// startLineOf is a Read's first line number: its startLine when that is a positive number, else 1.
func startLineOf(start any) int {
	switch v := start.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil && i > 0 {
			return int(i)
		}
	case float64:
		if v > 0 {
			return int(v)
		}
	}
	return 1
}

func filesText(r map[string]any) string {
	names, _ := r["filenames"].([]any)
	if len(names) == 0 {
		return "No files found"
	}
	parts := make([]string, 0, len(names)+1)
	parts = append(parts, "Found "+strconv.Itoa(len(names))+" files")
	for _, n := range names {
		if s, ok := n.(string); ok {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// textOfBlocks joins the text of content blocks ([{type: "text", text}], or plain strings).
func textOfBlocks(blocks []any) string {
	var parts []string
	for _, b := range blocks {
		switch v := b.(type) {
		case string:
			parts = append(parts, v)
		case map[string]any:
			if s, ok := v["text"].(string); ok {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// AgentPrompt is the prompt of an Agent/Task call's input, and whether it has one.
func AgentPrompt(toolInput json.RawMessage) (string, bool) {
	var in struct {
		Prompt *string `json:"prompt"`
	}
	if json.Unmarshal(toolInput, &in) != nil || in.Prompt == nil {
		return "", false
	}
	return *in.Prompt, true
}

// WithPrompt is the whole tool input with its prompt replaced: PreToolUse's updatedInput replaces the
// input, so every other field must ride along unchanged.
func WithPrompt(toolInput json.RawMessage, prompt string) (json.RawMessage, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(toolInput, &in); err != nil {
		return nil, fmt.Errorf("tool_input: %w", err)
	}
	p, err := json.Marshal(prompt)
	if err != nil {
		return nil, err
	}
	in["prompt"] = p
	return json.Marshal(in)
}

// AgentIDOf is the agent an Agent call's response launched ("" when none: the spawn failed).
func AgentIDOf(toolResponse json.RawMessage) string {
	var r struct {
		AgentID string `json:"agentId"`
	}
	if json.Unmarshal(toolResponse, &r) != nil {
		return ""
	}
	return r.AgentID
}
