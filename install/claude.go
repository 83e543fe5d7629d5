package install

import (
	"fmt"
	"strings"
)

// claudeEvents are the Claude Code events saverd hooks, with the matcher and timeout (seconds) of each.
// UserPromptSubmit waits longest because `/saver check` waits up to 120 s for the judge; Claude Code
// gives all SessionEnd hooks 1.5 s together, so 5 s there only bounds a stuck process.
var claudeEvents = []Handler{
	{Event: "SessionStart", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 130},
	{Event: "PreToolUse", Matcher: "Agent|Task", Timeout: 10},
	{Event: "PostToolUse", Matcher: "*", Timeout: 10},
	{Event: "PostToolUseFailure", Matcher: "*", Timeout: 10},
	{Event: "SubagentStart", Timeout: 10},
	{Event: "SubagentStop", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "PreCompact", Timeout: 10},
	{Event: "PostCompact", Timeout: 10},
	{Event: "SessionEnd", Timeout: 5},
}

// ClaudeHandlers are the hooks saverd declares for Claude Code, running the binary at bin.
func ClaudeHandlers(bin string) []Handler { return handlersFor(claudeEvents, shellQuote(bin)+" hook ") }

// handlersFor is each event's handler running prefix followed by the event's name.
func handlersFor(events []Handler, prefix string) []Handler {
	out := make([]Handler, len(events))
	for i, h := range events {
		h.Command = prefix + h.Event
		out[i] = h
	}
	return out
}

// ClaudeStatusLine is the status line command saverd declares.
func ClaudeStatusLine(bin string) string { return shellQuote(bin) + " statusline" }

// Edit is a settings file's new text, a line per change saverd made (none: the text is the file's own)
// and notes about what it chose to leave.
type Edit struct {
	Text    string
	Changes []string
	Notes   []string
}

// MergeClaude returns a Claude Code settings file with saverd's hooks and status line merged in. A status
// line of someone else's is kept (and said so in a note). name is the file's path, for the error when it
// does not parse.
func MergeClaude(name, text, bin string) (Edit, error) {
	return editFile(name, text, func(root *object) ([]string, []string, error) {
		changes, err := mergeHooks(root, ClaudeHandlers(bin))
		if err != nil {
			return nil, nil, err
		}
		line, note := mergeStatusLine(root, ClaudeStatusLine(bin))
		var notes []string
		if line != "" {
			changes = append(changes, line)
		}
		if note != "" {
			notes = append(notes, note)
		}
		return changes, notes, nil
	})
}

// editFile applies edit to a settings file's object: a file that does not parse, or an edit that fails,
// changes nothing and names the file. The text is rewritten only when something of saverd's changed,
// so a second run leaves the user's layout as it is.
func editFile(name, text string, edit func(root *object) (changes, notes []string, err error)) (Edit, error) {
	root, err := parseObject(text)
	if err != nil {
		return Edit{}, fmt.Errorf("%s is not valid JSON (%v): not changed", name, err)
	}
	changes, notes, err := edit(root)
	if err != nil {
		return Edit{}, fmt.Errorf("%s: %v: not changed", name, err)
	}
	e := Edit{Text: text, Changes: changes, Notes: notes}
	if len(changes) > 0 {
		e.Text = format(root)
	}
	return e, nil
}

// mergeStatusLine sets saverd's status line unless the user has a different one. It returns the change
// made ("" for none) and a note for a status line it kept.
func mergeStatusLine(root *object, command string) (change, note string) {
	cur, present := root.Lookup("statusLine")
	if present {
		cmd, isCmd := commandOf(cur)
		if !isCmd || !Ours(cmd) {
			return "", "kept your status line " + describe(cur) + " (saverd's band is not shown there)"
		}
		if o := cur.(*object); cmd == command && o.Len() == 2 && o.Get("type") == "command" {
			return "", ""
		}
	}
	o := &object{}
	o.Set("type", "command")
	o.Set("command", command)
	root.Set("statusLine", o)
	if present {
		return "updated statusLine: " + command, ""
	}
	return "added statusLine: " + command, ""
}

func describe(v any) string {
	if cmd, ok := commandOf(v); ok {
		return fmt.Sprintf("%q", cmd)
	}
	return strings.TrimSpace(format(v))
}

// RemoveClaude returns a Claude Code settings file without saverd's hooks and status line.
func RemoveClaude(name, text string) (Edit, error) {
	return editFile(name, text, func(root *object) ([]string, []string, error) {
		changes, err := removeHooks(root)
		if err != nil {
			return nil, nil, err
		}
		if cmd, ok := commandOf(root.Get("statusLine")); ok && Ours(cmd) {
			root.Del("statusLine")
			changes = append(changes, "removed statusLine: "+cmd)
		}
		return changes, nil, nil
	})
}
