package install

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/hookline"
)

// Handler is one hook saverd declares: the event it runs on, its group's matcher ("" for a group with
// no matcher key), the command line and its timeout in seconds.
type Handler struct {
	Event   string
	Matcher string
	Command string
	Timeout int
}

// Ours reports whether a command line is one saverd wrote (internal/hookline).
func Ours(command string) bool { return hookline.Ours(command) }

// words splits the first n shell words of a command line (internal/hookline).
func words(s string, n int) []string { return hookline.Words(s, n) }

// ShellQuote quotes a path for a command line a shell runs, only when it needs quoting.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// HooksTable returns root's "hooks" object, creating it when absent; a "hooks" of another type is an
// error, since replacing it would lose what the user put there.
func HooksTable(root *Object, create bool) (*Object, error) {
	v, present := root.Lookup("hooks")
	if !present {
		if !create {
			return nil, nil
		}
		h := &Object{}
		root.Set("hooks", h)
		return h, nil
	}
	h, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf(`"hooks" is %s, not an object`, kind(v))
	}
	return h, nil
}

func kind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	case *Object:
		return "an object"
	}
	return "a value of another kind"
}

// groupsOf returns one event's groups; an event whose value is not an array is an error.
func groupsOf(hooks *Object, event string) ([]any, error) {
	switch g := hooks.Get(event).(type) {
	case []any:
		return g, nil
	case nil:
		return nil, nil
	default:
		return nil, fmt.Errorf(`"hooks.%s" is %s, not an array`, event, kind(g))
	}
}

func matcherOf(group *Object) string {
	m, _ := group.Get("matcher").(string)
	return m
}

func CommandOf(v any) (string, bool) {
	h, ok := v.(*Object)
	if !ok {
		return "", false
	}
	c, ok := h.Get("command").(string)
	return c, ok
}

// handlerObject is the declaration saverd writes for h: exactly type, command and timeout, so Codex's
// trust hash over the declaration is the one install records.
func handlerObject(h Handler) *Object {
	o := &Object{}
	o.Set("type", "command")
	o.Set("command", h.Command)
	o.Set("timeout", json.Number(strconv.Itoa(h.Timeout)))
	return o
}

// sameHandler reports whether a declaration in the file is exactly what saverd would write for h.
func sameHandler(v any, h Handler) bool {
	o, ok := v.(*Object)
	if !ok || len(o.Keys()) != 3 {
		return false
	}
	t, _ := o.Get("type").(string)
	c, _ := o.Get("command").(string)
	n, _ := o.Get("timeout").(json.Number)
	return t == "command" && c == h.Command && string(n) == strconv.Itoa(h.Timeout)
}

// MergeHooks puts every wanted handler into root's hooks. The first of saverd's handlers found under a
// group with the wanted matcher is updated in place (a moved binary keeps its place in the file); any
// other saverd handler of that event is removed, and a group that held only those goes too; a missing
// one is appended as a group of its own. Foreign groups and handlers are never touched.
func MergeHooks(root *Object, want []Handler) ([]string, error) {
	hooks, err := HooksTable(root, true)
	if err != nil {
		return nil, err
	}
	var changes []string
	for _, h := range want {
		groups, err := groupsOf(hooks, h.Event)
		if err != nil {
			return nil, err
		}
		found := false
		out := make([]any, 0, len(groups)+1)
		for _, g := range groups {
			group, ok := g.(*Object)
			handlers, isArr := group.Get("hooks").([]any)
			if !ok || !isArr {
				out = append(out, g)
				continue
			}
			kept, removed := make([]any, 0, len(handlers)), false
			for _, v := range handlers {
				cmd, isCmd := CommandOf(v)
				switch {
				case !isCmd || !Ours(cmd):
					kept = append(kept, v)
				case !found && matcherOf(group) == h.Matcher:
					found = true
					if sameHandler(v, h) {
						kept = append(kept, v)
						continue
					}
					kept = append(kept, handlerObject(h))
					changes = append(changes, fmt.Sprintf("updated %s: %s (timeout %d s), was %s", h.Event, h.Command, h.Timeout, cmd))
				default:
					removed = true
					changes = append(changes, fmt.Sprintf("removed %s: %s (a second saverd entry)", h.Event, cmd))
				}
			}
			if removed && len(kept) == 0 {
				continue
			}
			group.Set("hooks", kept)
			out = append(out, group)
		}
		if !found {
			group := &Object{}
			if h.Matcher != "" {
				group.Set("matcher", h.Matcher)
			}
			group.Set("hooks", []any{handlerObject(h)})
			out = append(out, group)
			changes = append(changes, fmt.Sprintf("added %s: %s (timeout %d s)", h.Event, h.Command, h.Timeout))
		}
		hooks.Set(h.Event, out)
	}
	return changes, nil
}

// RemoveHooks removes every saverd handler from root's hooks, then the groups, events and the hooks
// object that removing them emptied; what was already empty stays.
func RemoveHooks(root *Object) ([]string, error) {
	hooks, err := HooksTable(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	var changes []string
	for _, event := range append([]string(nil), hooks.Keys()...) {
		groups, err := groupsOf(hooks, event)
		if err != nil {
			return nil, err
		}
		out, emptied := make([]any, 0, len(groups)), false
		for _, g := range groups {
			group, ok := g.(*Object)
			handlers, isArr := group.Get("hooks").([]any)
			if !ok || !isArr {
				out = append(out, g)
				continue
			}
			kept, removed := make([]any, 0, len(handlers)), false
			for _, v := range handlers {
				if cmd, isCmd := CommandOf(v); isCmd && Ours(cmd) {
					removed = true
					changes = append(changes, fmt.Sprintf("removed %s: %s", event, cmd))
					continue
				}
				kept = append(kept, v)
			}
			if removed && len(kept) == 0 {
				emptied = true
				continue
			}
			if removed {
				group.Set("hooks", kept)
			}
			out = append(out, group)
		}
		switch {
		case emptied && len(out) == 0:
			hooks.Del(event)
		case len(out) != len(groups) || emptied:
			hooks.Set(event, out)
		}
	}
	if len(changes) > 0 && len(hooks.Keys()) == 0 {
		root.Del("hooks")
	}
	return changes, nil
}

// HandlersFor is each event's handler running prefix followed by the event's name.
func HandlersFor(events []Handler, prefix string) []Handler {
	out := make([]Handler, len(events))
	for i, h := range events {
		h.Command = prefix + h.Event
		out[i] = h
	}
	return out
}

// Edit is a settings file's new text, a line per change saverd made (none: the text is the file's own)
// and notes about what it chose to leave.
type Edit struct {
	Text    string
	Changes []string
	Notes   []string
}

// EditFile applies edit to a settings file's object: a file that does not parse, or an edit that fails,
// changes nothing and names the file. The text is rewritten only when something of saverd's changed,
// so a second run leaves the user's layout as it is.
func EditFile(name, text string, edit func(root *Object) (changes, notes []string, err error)) (Edit, error) {
	root, err := ParseObject(text)
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
