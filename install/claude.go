package install

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// claudeEvents are the Claude Code events saverd hooks, with the matcher and timeout (seconds) of each.
// UserPromptSubmit waits longest because `/saver check` waits up to 120 s for the judge; Claude Code
// gives all SessionEnd hooks 1.5 s together, so 5 s there only bounds a stuck process.
// UserPromptExpansion runs only for the /saver command (the matcher is read against the command's name:
// saver, or saver:saver for the plugin's) and only when UserPromptSubmit did not block it: it is the
// guard that keeps a /saver line from the model when saverd's UserPromptSubmit hook failed.
var claudeEvents = []Handler{
	{Event: "SessionStart", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 130},
	{Event: "UserPromptExpansion", Matcher: SaverCommandMatcher, Timeout: 10},
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

// SaverCommandMatcher is the UserPromptExpansion matcher of saverd's guard: the command file's /saver
// and the plugin's /saver:saver.
const SaverCommandMatcher = "^(saver:)?saver$"

// GuardReason is what the person reads when the guard stops a /saver line that saverd's own hook did
// not answer and saverd-hook cannot say more (it is missing, or it failed too). It holds no single
// quote: it is written inside one on the hook's command line.
const GuardReason = "saverd did not answer this /saver line: its UserPromptSubmit hook failed or is missing " +
	"(run saverd doctor). The line was stopped here, so nothing was sent to the model."

// ClaudeHandlers are the hooks saverd declares for Claude Code, running the binary at bin.
func ClaudeHandlers(bin string) []Handler {
	hs := handlersFor(claudeEvents, shellQuote(bin)+" hook ")
	for i := range hs {
		if hs[i].Event == "UserPromptExpansion" {
			hs[i].Command = guardCommand(hs[i].Command)
		}
	}
	return hs
}

// guardCommand is the guard's command line: saverd-hook says why the line was not answered, and when it
// cannot run at all (missing, crashed) the shell blocks the line with GuardReason, so the command file's
// body never reaches the model. saverd-hook always exits 0, so the two never both print.
func guardCommand(hook string) string {
	answer, _ := json.Marshal(map[string]any{"decision": "block", "reason": GuardReason,
		"hookSpecificOutput": map[string]any{"hookEventName": "UserPromptExpansion", "suppressOriginalPrompt": true}})
	return hook + " 2>/dev/null || printf '%s\\n' '" + string(answer) + "'"
}

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
func MergeClaude(name, text, bin string) (Edit, error) { return mergeClaude(name, text, bin, true) }

// mergeClaude is MergeClaude; without hooks (the saver plugin brings them) saverd's hooks are removed
// from the file instead, so no event reaches saverd twice, and only the status line is merged.
func mergeClaude(name, text, bin string, hooks bool) (Edit, error) {
	return editFile(name, text, func(root *object) ([]string, []string, error) {
		var changes []string
		var err error
		if hooks {
			changes, err = mergeHooks(root, ClaudeHandlers(bin))
		} else {
			changes, err = removeHooks(root)
		}
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
		if e.Text, err = patchText(text, root); err != nil {
			return Edit{}, fmt.Errorf("%s: %v: not changed", name, err)
		}
	}
	return e, nil
}

// StatusRefresh is the status line's refreshInterval saverd sets: Claude Code re-runs the status line
// on its own events only (a turn, a prompt), so without a timer the band stays as it was after a /saver
// command or a background judge result until the next model turn. 1 s is the least Claude Code 2.1.328
// accepts (smaller values are dropped); the command costs about 2 ms of CPU a run (README, Performance).
const StatusRefresh = 1

// mergeStatusLine sets saverd's status line unless the user has a different one. Members of saverd's
// status line the person added (padding) stay, and so does a refreshInterval they chose. It returns the
// change made ("" for none) and a note for a status line it kept.
func mergeStatusLine(root *object, command string) (change, note string) {
	cur, present := root.Lookup("statusLine")
	if !present {
		o := &object{}
		o.Set("type", "command")
		o.Set("command", command)
		o.Set("refreshInterval", json.Number(strconv.Itoa(StatusRefresh)))
		root.Set("statusLine", o)
		return fmt.Sprintf("added statusLine: %s (refreshed every %d s)", command, StatusRefresh), ""
	}
	cmd, isCmd := commandOf(cur)
	if !isCmd || !Ours(cmd) {
		return "", "kept your status line " + describe(cur) + " (saverd's band is not shown there)"
	}
	o := cur.(*object)
	changed := false
	if o.Get("type") != "command" {
		o.Set("type", "command")
		changed = true
	}
	if cmd != command {
		o.Set("command", command)
		changed = true
	}
	if n, ok := o.Get("refreshInterval").(json.Number); !ok || !atLeastOne(n) {
		o.Set("refreshInterval", json.Number(strconv.Itoa(StatusRefresh)))
		changed = true
	}
	if !changed {
		return "", ""
	}
	return fmt.Sprintf("updated statusLine: %s (refreshed every %s s)", command, o.Get("refreshInterval")), ""
}

// atLeastOne: a refreshInterval Claude Code keeps (it drops values under 1).
func atLeastOne(n json.Number) bool {
	f, err := n.Float64()
	return err == nil && f >= 1
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
