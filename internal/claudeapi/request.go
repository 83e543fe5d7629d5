package claudeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Request is one POST /v1/messages the client sent, decoded. Body and JSON keep everything, so a test
// can assert on a field this type does not name.
type Request struct {
	// Seq numbers the messages requests from 1, in the order the server received them.
	Seq    int
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	JSON   map[string]any

	Model     string
	Stream    bool
	MaxTokens int
	System    []Content
	Messages  []Message
	Tools     []Tool
}

// Message is one turn of the conversation the client sent: its role and its content blocks (a plain
// string content arrives as one text block).
type Message struct {
	Role    string    `json:"role"`
	Content []Content `json:"content"`
}

// Content is one content block: text, tool_use, tool_result, thinking or an image. Raw keeps the block
// as sent.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result: Content is a string (one text block) or a list of blocks.
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Content   []Content `json:"content,omitempty"`
	IsError   bool      `json:"is_error,omitempty"`
	// thinking
	Thinking string `json:"thinking,omitempty"`

	Raw json.RawMessage `json:"-"`
}

// Tool is one tool definition the model was offered.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// contents decodes a content field that is either a string or a list of blocks.
type contents []Content

func (c *contents) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*c = contents{{Type: "text", Text: s, Raw: data}}
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("content is neither a string nor a list of blocks: %w", err)
	}
	out := make(contents, 0, len(raws))
	for i, raw := range raws {
		var b Content
		if err := b.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("content block %d: %w", i, err)
		}
		out = append(out, b)
	}
	*c = out
	return nil
}

// UnmarshalJSON reads one block, its nested tool_result content as string or list.
func (c *Content) UnmarshalJSON(data []byte) error {
	var wire struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   contents        `json:"content"`
		IsError   bool            `json:"is_error"`
		Thinking  string          `json:"thinking"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return err
	}
	*c = Content{Type: wire.Type, Text: wire.Text, ID: wire.ID, Name: wire.Name, Input: wire.Input,
		ToolUseID: wire.ToolUseID, Content: wire.Content, IsError: wire.IsError, Thinking: wire.Thinking,
		Raw: append(json.RawMessage(nil), data...)}
	return nil
}

// decodeRequest reads a messages request body. The body must be a JSON object with a model and a
// messages list, as the API requires; anything else is an error naming what was wrong.
func decodeRequest(body []byte) (Request, error) {
	var wire struct {
		Model     string   `json:"model"`
		Stream    bool     `json:"stream"`
		MaxTokens int      `json:"max_tokens"`
		System    contents `json:"system"`
		Messages  []struct {
			Role    string   `json:"role"`
			Content contents `json:"content"`
		} `json:"messages"`
		Tools []Tool `json:"tools"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return Request{}, fmt.Errorf("messages request body: %w", err)
	}
	if wire.Model == "" {
		return Request{}, fmt.Errorf("messages request body: model: Field required")
	}
	if wire.Messages == nil {
		return Request{}, fmt.Errorf("messages request body: messages: Field required")
	}
	var all map[string]any
	if err := json.Unmarshal(body, &all); err != nil {
		return Request{}, fmt.Errorf("messages request body: %w", err)
	}
	r := Request{Body: body, JSON: all, Model: wire.Model, Stream: wire.Stream, MaxTokens: wire.MaxTokens,
		System: wire.System, Tools: wire.Tools}
	for _, m := range wire.Messages {
		r.Messages = append(r.Messages, Message{Role: m.Role, Content: m.Content})
	}
	return r, nil
}

// SystemText is the system prompt as one string, its text blocks joined by newlines.
func (r Request) SystemText() string {
	return blocksText(r.System)
}

// Text is all the text the model reads in this request apart from the tool definitions (see Tools):
// the system prompt, then every message's text, tool calls (name and input) and tool results, in
// order, one block per line. A test asserts that an instruction reached the model by searching it.
func (r Request) Text() string {
	var b strings.Builder
	b.WriteString(r.SystemText())
	for _, m := range r.Messages {
		for _, c := range m.Content {
			b.WriteByte('\n')
			b.WriteString(c.text())
		}
	}
	return b.String()
}

// LastUserText is the text of the last user message: its text blocks and tool results. A Script
// usually tells its callers apart by it.
func (r Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return blocksText(r.Messages[i].Content)
		}
	}
	return ""
}

// ToolResults maps each tool_use_id answered in this request to the text of its result.
func (r Request) ToolResults() map[string]string {
	out := map[string]string{}
	for _, m := range r.Messages {
		for _, c := range m.Content {
			if c.Type == "tool_result" {
				out[c.ToolUseID] = blocksText(c.Content)
			}
		}
	}
	return out
}

// ToolNames lists the tools offered, in order.
func (r Request) ToolNames() []string {
	names := make([]string, len(r.Tools))
	for i, t := range r.Tools {
		names[i] = t.Name
	}
	return names
}

// text is what the model reads of one block.
func (c Content) text() string {
	switch c.Type {
	case "text":
		return c.Text
	case "thinking":
		return c.Thinking
	case "tool_use":
		return c.Name + " " + string(c.Input)
	case "tool_result":
		return blocksText(c.Content)
	}
	return ""
}

func blocksText(blocks []Content) string {
	parts := make([]string, 0, len(blocks))
	for _, c := range blocks {
		if s := c.text(); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// IsSubagent tells a subagent's request from its parent's: Claude Code marks the billing line that opens
// a subagent's system prompt with cc_is_subagent=true.
func IsSubagent(r Request) bool {
	return len(r.System) > 0 && strings.Contains(r.System[0].Text, "cc_is_subagent=true")
}
