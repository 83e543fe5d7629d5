package claudeapi

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Script chooses the reply to one messages request. It runs on the server's handler goroutines, one
// call per request, possibly several at once (a subagent's loop beside the main one): a Script that
// keeps state must guard it. Steps and Route build the common ones.
type Script func(req Request) Reply

// Reply is what the model answers to one request: content blocks, a stop reason and usage, or an API
// error when Status is set.
type Reply struct {
	Content []Block
	// StopReason defaults to "tool_use" when a block is a tool use, else "end_turn".
	StopReason string
	// Usage defaults to an estimate from the request's and the reply's length (about four characters
	// per token), all of it uncached input.
	Usage *Usage
	// Model defaults to the request's model.
	Model string

	// Status, when non-zero, makes this reply an API error with that HTTP status: the body is
	// {"type":"error","error":{"type": ErrorType, "message": ErrorMessage}}.
	Status       int
	ErrorType    string
	ErrorMessage string
}

// Block is one content block of a reply: text, or a tool use.
type Block struct {
	Type string // "text" or "tool_use"
	Text string
	// ID of a tool use; the server makes one (toolu_...) when empty.
	ID    string
	Name  string
	Input any
}

// Usage is the tokens one reply reports, as the API names them in message_start and message_delta.
type Usage struct {
	Input         int `json:"input_tokens"`
	Output        int `json:"output_tokens"`
	CacheRead     int `json:"cache_read_input_tokens"`
	CacheCreation int `json:"cache_creation_input_tokens"`
}

// Text is a reply of one text block.
func Text(s string) Reply {
	return Reply{Content: []Block{{Type: "text", Text: s}}}
}

// ToolUse is a reply of one tool use; input is marshalled to JSON (a map, a struct or a
// json.RawMessage). The tool's id is made by the server.
func ToolUse(name string, input any) Reply {
	return Reply{Content: []Block{{Type: "tool_use", Name: name, Input: input}}}
}

// Plus is r followed by the blocks of more: Text("Two checks.").Plus(ToolUse(...), ToolUse(...)) is one
// reply with three blocks, the two tool uses run by the client together.
func (r Reply) Plus(more ...Reply) Reply {
	r.Content = append([]Block(nil), r.Content...)
	for _, m := range more {
		r.Content = append(r.Content, m.Content...)
	}
	return r
}

// WithUsage is r reporting u instead of the estimate.
func (r Reply) WithUsage(u Usage) Reply {
	r.Usage = &u
	return r
}

// Error is an API error reply: status 529 with "overloaded_error", 400 with "invalid_request_error", ...
func Error(status int, errType, message string) Reply {
	return Reply{Status: status, ErrorType: errType, ErrorMessage: message}
}

// Steps answers the n-th request it is asked with the n-th reply, in arrival order, and with a 400
// error naming the request once the replies run out: the client retries a 5xx for minutes but stops at
// a 400, so a test whose script is too short fails at once, with this text in the client's output.
func Steps(replies ...Reply) Script {
	var mu sync.Mutex
	next := 0
	return func(req Request) Reply {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(replies) {
			return Error(400, "invalid_request_error", fmt.Sprintf("script: no step left for request %d (%d steps): %.200q",
				req.Seq, len(replies), req.LastUserText()))
		}
		next++
		return replies[next-1]
	}
}

// Case is one branch of Route: requests that Match are answered by Script.
type Case struct {
	Match  func(Request) bool
	Script Script
}

// Route answers each request with the Script of the first Case that matches it, and with a 400 error
// (see Steps) when none does. A test answers the main loop, a subagent and a judge fork each with its own Steps.
func Route(cases ...Case) Script {
	return func(req Request) Reply {
		for _, c := range cases {
			if c.Match(req) {
				return c.Script(req)
			}
		}
		return Error(400, "invalid_request_error", fmt.Sprintf("script: no case matches request %d: %.200q", req.Seq, req.LastUserText()))
	}
}

// encodeInput marshals a tool use's input; nil is the empty object, as the API never sends null input.
func encodeInput(input any) (json.RawMessage, error) {
	if input == nil {
		return json.RawMessage("{}"), nil
	}
	if raw, ok := input.(json.RawMessage); ok {
		if !json.Valid(raw) {
			return nil, fmt.Errorf("tool input is not valid JSON: %.100q", raw)
		}
		return raw, nil
	}
	b, err := json.Marshal(input)
	if err != nil {
		return nil, fmt.Errorf("tool input: %w", err)
	}
	return b, nil
}
