package bridge

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// MaxAnswerText is the most Claude Code takes of one hook output string; longer ones it cuts itself,
// so the daemon cuts first, at a line, and says so.
const MaxAnswerText = 10000

// Answer is what a hook prints on its standard output: Claude Code's (and Codex's) hook answer.
type Answer struct {
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is the event-specific part of an answer.
type Specific struct {
	HookEventName      string          `json:"hookEventName"`
	AdditionalContext  string          `json:"additionalContext,omitempty"`
	PermissionDecision string          `json:"permissionDecision,omitempty"`
	UpdatedInput       json.RawMessage `json:"updatedInput,omitempty"`
	// SuppressOriginalPrompt: Claude Code shows a blocked prompt's reason without the typed line again.
	SuppressOriginalPrompt bool `json:"suppressOriginalPrompt,omitempty"`
}

// Empty reports whether the answer says nothing, so the hook prints nothing at all.
func (a *Answer) Empty() bool {
	return a == nil || (a.Decision == "" && a.Reason == "" && a.SystemMessage == "" && a.HookSpecificOutput == nil)
}

// Context is an answer that adds texts to the model's context next to the event (the prompt, the tool
// result, the session's start); nil when there is nothing to add.
func Context(event string, texts []string) *Answer {
	if len(texts) == 0 {
		return nil
	}
	return &Answer{HookSpecificOutput: &Specific{HookEventName: event, AdditionalContext: Fit(strings.Join(texts, "\n\n"))}}
}

// Block is UserPromptSubmit's answer for a `/saver` command: the prompt never reaches the model, and the
// person reads the reason.
func Block(reason string) *Answer {
	return &Answer{Decision: "block", Reason: Fit(reason)}
}

// SpawnInput is PreToolUse's answer that starts a subagent with the rewritten input.
func SpawnInput(input json.RawMessage) *Answer {
	return &Answer{HookSpecificOutput: &Specific{HookEventName: PreToolUse, PermissionDecision: "allow", UpdatedInput: input}}
}

// WithToasts adds the daemon's pending toasts as the answer's systemMessage (shown to the person).
func WithToasts(a *Answer, toasts []string) *Answer {
	if len(toasts) == 0 {
		return a
	}
	if a == nil {
		a = &Answer{}
	}
	msg := strings.Join(toasts, "\n")
	if a.SystemMessage != "" {
		msg = a.SystemMessage + "\n" + msg
	}
	a.SystemMessage = Fit(msg)
	return a
}

// Fit cuts s to MaxAnswerText bytes' worth of characters, at the last line break when there is one.
func Fit(s string) string {
	const tail = "\n… (cut)"
	if len(s) <= MaxAnswerText {
		return s
	}
	cut := MaxAnswerText - len(tail)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	s = s[:cut]
	if i := strings.LastIndexByte(s, '\n'); i > cut/2 {
		s = s[:i]
	}
	return s + tail
}
