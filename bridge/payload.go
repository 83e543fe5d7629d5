package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state/intake"
)

// Events a hook can be named after.
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	SubagentStart      = "SubagentStart"
	SubagentStop       = "SubagentStop"
	Stop               = "Stop"
	PreCompact         = "PreCompact"
	PostCompact        = "PostCompact"
	SessionEnd         = "SessionEnd"
)

// Events are the events a hook can be named after, in the order a session meets them.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart,
	SubagentStop, Stop, PreCompact, PostCompact, SessionEnd}

// Known reports whether event is one a hook can carry.
func Known(event string) bool { return slices.Contains(Events, event) }

// Payload is one hook's standard input: the fields every event has, and each event's own.
type Payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Model          string `json:"model"`   // Codex sends the session's model on every hook
	TurnID         string `json:"turn_id"` // Codex

	Source        string `json:"source"`         // SessionStart: startup | resume | clear | compact | fork
	ContextTokens *int64 `json:"context_tokens"` // SessionStart on resume

	Prompt string `json:"prompt"` // UserPromptSubmit

	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolResponse json.RawMessage `json:"tool_response"`
	DurationMs   *float64        `json:"duration_ms"`
	Error        *string         `json:"error"` // PostToolUseFailure
	IsInterrupt  bool            `json:"is_interrupt"`

	AgentID             string `json:"agent_id"`
	AgentType           string `json:"agent_type"`
	AgentTranscriptPath string `json:"agent_transcript_path"`

	LastAssistantMessage *string `json:"last_assistant_message"` // Stop, SubagentStop
	StopHookActive       bool    `json:"stop_hook_active"`
	Reason               string  `json:"reason"`  // SessionEnd
	Trigger              string  `json:"trigger"` // PreCompact / PostCompact

	// measured is the PostToolUse's result when ReadPayload measured its tool_response where it lay
	// (ToolResponse is then nil): ToolCallOf's, read with the payload.
	measured *intake.ToolResult
}

// Parse reads a hook payload. event is the one the hook command was named for; a payload that names
// another is refused, so a misconfigured hook never records a tool call as a prompt. The payload's
// ToolInput and ToolResponse are slices of raw, not copies: raw must not change while they are used.
func Parse(event string, raw []byte) (Payload, error) {
	var p Payload
	if kind := intake.JSONKind(raw); kind != "object" {
		return p, fmt.Errorf("hook payload: want a JSON object, got %s", kind)
	}
	// segmentio's decoder: a payload can carry tens of megabytes of tool output, read here in one pass,
	// and the tool's input and response are left where they lie in raw, not copied: raw outlives p.
	rest, err := fastjson.Parse(raw, &p, fastjson.DontCopyRawMessage)
	if err == nil && len(bytes.TrimSpace(rest)) > 0 {
		err = errors.New("data after the JSON value")
	}
	if err != nil {
		return p, fmt.Errorf("hook payload: %s", fieldError(err))
	}
	return p, Check(event, &p)
}

// Check holds a decoded payload (Parse's, or ReadPayload's) to the event its hook was named for, which
// it takes as its Event, and to the fields that event requires.
func Check(event string, p *Payload) error {
	if !Known(event) {
		return fmt.Errorf("unknown hook event %q", event)
	}
	if p.Event != "" && p.Event != event {
		return fmt.Errorf("hook for %s got a %s payload", event, p.Event)
	}
	p.Event = event
	if p.SessionID == "" {
		return fmt.Errorf("%s payload: session_id: required", event)
	}
	if p.Cwd == "" {
		return fmt.Errorf("%s payload: cwd: required", event)
	}
	switch event {
	case PreToolUse, PostToolUse, PostToolUseFailure:
		if p.ToolName == "" {
			return fmt.Errorf("%s payload: tool_name: required", event)
		}
	case SubagentStart, SubagentStop:
		if p.AgentID == "" {
			return fmt.Errorf("%s payload: agent_id: required", event)
		}
	}
	return nil
}

// SaverArgs reads a prompt typed as a saverd command — `/saver …`, the plugin's `/saver:saver …`, or
// Codex's `$saver …` / `$saver:saver …` (internal/saverline): ok, the spelling typed, and what follows it.
func SaverArgs(prompt string) (name, args string, ok bool) { return saverline.Parse(prompt) }

// IsTaskNotification: Claude Code submits a finished background agent's report as a prompt of its own;
// nobody typed it, so it is no ask of the person's.
func IsTaskNotification(prompt string) bool {
	return strings.HasPrefix(strings.TrimSpace(prompt), "<task-notification>")
}

// IsAgentTool: the tools that start a subagent (Agent, called Task before Claude Code 2.1.63).
func IsAgentTool(name string) bool { return name == "Agent" || name == "Task" }

// fieldError says which payload field had the wrong type, in JSON's words rather than Go's.
func fieldError(err error) string {
	var te *fastjson.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		// segmentio's Value is the rest of the input from the bad value on: its first token's kind is enough.
		v := te.Value
		if u, err := strconv.Unquote(v); err == nil {
			v = u
		}
		return te.Field + ": want " + jsonName(te.Type.Kind().String()) + ", got " + intake.JSONKind([]byte(v))
	}
	return "not JSON (malformed or cut short)"
}

func jsonName(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "ptr", "struct", "map":
		return "object"
	case "slice":
		return "array"
	}
	return "number"
}
