package bridge

import (
	"bytes"
	"strconv"

	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/state/intake"
)

// ReadPayload reads a hook payload at sc in one pass (internal/jsonscan), as Parse's decoder reads it,
// for a caller that reads the payload where it lies in a larger text (the hook request's frame): a long
// tool output is measured there (measure.go), never copied, and the PostToolUse's result is kept on the
// payload for ToolCallOf. What the payload holds is its own, none of sc's text: the tool's input, and a
// response that was not measured, are copied. ok is false for any text Parse's decoder must decide (not
// an object, a name written in another case or given twice, a value of another type than its field's, a
// number that is not an integer where one is wanted, anything jsonscan refuses): the caller then parses
// the same text with Parse. The payload is not checked (Check): a read one is checked as a parsed one is.
func ReadPayload(sc *jsonscan.Scanner) (Payload, bool) {
	var p Payload
	if !sc.Enter() {
		return p, false
	}
	seen := make(map[string]bool, 12)
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return Payload{}, false
		case !more:
			return p, true
		}
		name := string(key)
		field, known := payloadFields[name]
		if !known {
			if jsonscan.FoldsTo(key, payloadNames) || !sc.Skip() {
				return Payload{}, false // a name the decoder matches regardless of case: its to decide
			}
			continue
		}
		if seen[name] || !field(sc, &p) {
			return Payload{}, false
		}
		seen[name] = true
	}
}

// payloadFields read each of Payload's members as its decoder would: null leaves a field as it was
// (a pointer nil), anything of another type is refused.
var payloadFields = map[string]func(*jsonscan.Scanner, *Payload) bool{
	"session_id":            text(func(p *Payload) *string { return &p.SessionID }),
	"transcript_path":       text(func(p *Payload) *string { return &p.TranscriptPath }),
	"cwd":                   text(func(p *Payload) *string { return &p.Cwd }),
	"hook_event_name":       text(func(p *Payload) *string { return &p.Event }),
	"model":                 text(func(p *Payload) *string { return &p.Model }),
	"turn_id":               text(func(p *Payload) *string { return &p.TurnID }),
	"source":                text(func(p *Payload) *string { return &p.Source }),
	"prompt":                text(func(p *Payload) *string { return &p.Prompt }),
	"tool_name":             text(func(p *Payload) *string { return &p.ToolName }),
	"tool_use_id":           text(func(p *Payload) *string { return &p.ToolUseID }),
	"agent_id":              text(func(p *Payload) *string { return &p.AgentID }),
	"agent_type":            text(func(p *Payload) *string { return &p.AgentType }),
	"agent_transcript_path": text(func(p *Payload) *string { return &p.AgentTranscriptPath }),
	"reason":                text(func(p *Payload) *string { return &p.Reason }),
	"trigger":               text(func(p *Payload) *string { return &p.Trigger }),
	"error":                 textOrNil(func(p *Payload) **string { return &p.Error }),
	"last_assistant_message": textOrNil(func(p *Payload) **string {
		return &p.LastAssistantMessage
	}),
	"is_interrupt":     flag(func(p *Payload) *bool { return &p.IsInterrupt }),
	"stop_hook_active": flag(func(p *Payload) *bool { return &p.StopHookActive }),
	"context_tokens":   readContextTokens,
	"duration_ms":      readDuration,
	"tool_input": func(sc *jsonscan.Scanner, p *Payload) bool {
		raw, ok := sc.Raw()
		p.ToolInput = bytes.Clone(raw) // an input is a few lines: its own copy
		return ok
	},
	"tool_response": readResponse,
}

// payloadNames are Payload's names on the wire.
var payloadNames = func() []string {
	names := make([]string, 0, len(payloadFields))
	for name := range payloadFields {
		names = append(names, name)
	}
	return names
}()

func text(at func(*Payload) *string) func(*jsonscan.Scanner, *Payload) bool {
	return func(sc *jsonscan.Scanner, p *Payload) bool { return sc.StringInto(at(p)) }
}

func textOrNil(at func(*Payload) **string) func(*jsonscan.Scanner, *Payload) bool {
	return func(sc *jsonscan.Scanner, p *Payload) bool {
		if sc.Peek() == 'n' {
			*at(p) = nil
			return sc.Literal("null")
		}
		s, ok := sc.String()
		*at(p) = &s
		return ok
	}
}

func flag(at func(*Payload) *bool) func(*jsonscan.Scanner, *Payload) bool {
	return func(sc *jsonscan.Scanner, p *Payload) bool { return sc.BoolInto(at(p)) }
}

// readContextTokens: an integer within int64; a fraction or an exponent is the decoder's to judge.
func readContextTokens(sc *jsonscan.Scanner, p *Payload) bool {
	if sc.Peek() == 'n' {
		p.ContextTokens = nil
		return sc.Literal("null")
	}
	var n int64
	if !sc.Integer(&n) {
		return false
	}
	p.ContextTokens = &n
	return true
}

// readDuration: any number float64 holds, as the decoder parses it.
func readDuration(sc *jsonscan.Scanner, p *Payload) bool {
	if sc.Peek() == 'n' {
		p.DurationMs = nil
		return sc.Literal("null")
	}
	n, ok := sc.Number()
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return false
	}
	p.DurationMs = &v
	return true
}

// readResponse reads tool_response: measured in place when the tool is named already and the text the
// model saw is a long string of it (measuredResponse), else its text copied, for ToolCallOf to read as
// it reads a parsed payload's.
func readResponse(sc *jsonscan.Scanner, p *Payload) bool {
	p.measured = nil
	at := *sc
	if p.ToolName != "" {
		if r, ok := measuredResponse(sc, p.ToolName); ok {
			p.ToolResponse = nil
			p.measured = &r
			return true
		}
		*sc = at // short, or not what the measure knows: read again as text, and decoded as Parse's is
	}
	raw, ok := sc.Raw()
	p.ToolResponse = bytes.Clone(raw)
	return ok
}

// measuredResult is the tool's result when ReadPayload measured its response in place.
func (p Payload) measuredResult() (intake.ToolResult, bool) {
	if p.measured == nil {
		return intake.ToolResult{}, false
	}
	return *p.measured, true
}
