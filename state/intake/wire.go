package intake

import (
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/internal/jstext"
)

// The one-pass readers of a tool.call's event and result (see internal/jsonscan). Each reads exactly what
// ToolEventFromJSON or ToolResult.UnmarshalJSON would make of the same text, or refuses (ok false) and the
// caller decodes that text with them instead: a result's text is measured, never copied.

// measuredText is what a row reads of a result's text, measured as it was read: its length in UTF-16
// units and its head.
type measuredText struct {
	ok    bool // the text was measured
	chars int64
	head  string
}

// eventNames are the member names and values tool events repeat (intake reads most of them): handed
// out by the scanner as they are, never copied.
var eventNames = jsonscan.Intern(
	"tool", "tool_use_id", "agentId", "consent", "command", "description", "file_path", "notebook_path",
	"offset", "limit", "pattern", "path", "content", "prompt", "subagent_type", "model", "questions",
	"run_in_background", "timeout", "old_string", "new_string", "replace_all", "edits", "glob", "type",
	"output_mode", "-n", "-i", "-A", "-B", "-C", "head_limit", "multiline", "url", "query", "todos",
	"plan", "Bash", "Read", "Edit", "MultiEdit", "Write", "NotebookEdit", "Grep", "Glob", "Agent",
	"Task", "Workflow", "AskUserQuestion", "ExitPlanMode", "TodoWrite", "WebFetch", "WebSearch",
	"BashOutput", "KillShell", "general-purpose", "Explore", "Plan",
)

// NewEventScanner is a scanner over a tool.call's params that hands out the names events repeat
// (eventNames) without copying them.
func NewEventScanner(data []byte) jsonscan.Scanner { return jsonscan.WithNames(data, eventNames) }

// EventNames is the set NewEventScanner hands out, for a reader given a scanner over a whole frame
// (jsonscan.Scanner.SetNames).
func EventNames() *jsonscan.Interned { return eventNames }

// readEventMax is the most members ReadToolEvent reads: each is checked against those before it, which
// is cheap for the handful an event has and quadratic for a frame made of thousands.
const readEventMax = 32

// ReadToolEvent reads a tool event, which must be an object, as ToolEventFromJSON would.
func ReadToolEvent(sc *jsonscan.Scanner) (ToolEvent, bool) { return ReadToolEventInto(sc, nil) }

// ReadToolEventInto is ReadToolEvent building the event in room's array (Room), when it has one, rather
// than a new one: a caller that reads an event per request and is done with each before the next reuses
// one array.
func ReadToolEventInto(sc *jsonscan.Scanner, room Room) (ToolEvent, bool) {
	if !sc.Enter() {
		return ToolEvent{}, false
	}
	e := ToolEvent{members: room[:0]}
	if cap(room) == 0 {
		e = NewToolEvent(4)
	}
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return ToolEvent{}, false
		case !more:
			return e, true
		}
		if e.Len() == readEventMax {
			return ToolEvent{}, false // past a handful, the full decoder (a map) finds a name given twice
		}
		name := sc.Name(key)
		if e.Has(name) {
			return ToolEvent{}, false // the full decoder says which one counts
		}
		m := eventMember{name: name}
		if sc.Peek() == '"' {
			// A string is kept unboxed (an interned one comes boxed already). Only the members whose values
			// repeat are looked up: an id, a command or a path never is one of eventNames.
			if m.value, ok = internedValue(sc, name); !ok {
				var str string
				str, ok = sc.String()
				m = unboxedString(name, str)
			}
		} else {
			m.value, ok = sc.Value()
		}
		if !ok {
			return ToolEvent{}, false
		}
		e.members = append(e.members, m)
	}
}

// internedValue is sc.Interned for a member whose values eventNames holds (a tool's name, a subagent's
// type); for any other it reads nothing and answers false.
func internedValue(sc *jsonscan.Scanner, name string) (any, bool) {
	switch name {
	case "tool", "subagent_type":
		return sc.Interned()
	}
	return nil, false
}

// ReadToolResult reads a result object as UnmarshalJSON would, its members matched by their exact names,
// except that the text is measured (the result holds its length and head, not the text: Text is nil). A
// name given twice or a deny that is neither a string nor null is refused.
func ReadToolResult(sc *jsonscan.Scanner) (ToolResult, bool) {
	var r ToolResult
	if !sc.Enter() {
		return r, false
	}
	var seen struct{ result, text, isError, deny bool }
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return r, false
		case !more:
			return r, true
		}
		switch string(key) {
		case "result":
			if !jsonscan.Once(&seen.result) {
				return r, false
			}
			r.Result, ok = sc.Value()
		case "text":
			if !jsonscan.Once(&seen.text) {
				return r, false
			}
			ok = readText(sc, &r)
		case "isError":
			if !jsonscan.Once(&seen.isError) {
				return r, false
			}
			r.IsError = sc.Peek() == 't'
			ok = sc.Skip()
		case "deny":
			if !jsonscan.Once(&seen.deny) {
				return r, false
			}
			switch sc.Peek() {
			case 'n':
				ok = sc.Literal("null")
			case '"':
				var s string
				s, ok = sc.String()
				r.Deny = &s
			default:
				ok = false
			}
		default:
			ok = sc.Skip()
		}
		if !ok {
			return r, false
		}
	}
}

// readText measures a string text; a text of any other kind is absent, as UnmarshalJSON reads it. Only
// the text's start is decoded, into headRead: a head it does not settle (a start of control characters,
// which a head drops) is refused.
func readText(sc *jsonscan.Scanner, r *ToolResult) bool {
	if sc.Peek() != '"' {
		return sc.Skip()
	}
	var start [headRead]byte
	units, n, whole, ok := sc.Measure(start[:])
	var h headBuilder
	h.addBytes(start[:n])
	r.measured = measuredText{ok: true, chars: int64(units), head: h.String()}
	return ok && (whole || h.full)
}

// MeasuredResult is a result whose text was measured where it lay instead of decoded (a hook's tool
// output of megabytes): its length in UTF-16 units and its start (all of it when whole), from which the
// row's head is made, as ReadToolResult measures a tool.call's. ok is false when a start that is not
// whole does not settle the head (a start of control characters, which a head drops): the text must then
// be read whole.
func MeasuredResult(result any, units int64, start string, whole bool) (ToolResult, bool) {
	var h headBuilder
	h.addBytes([]byte(start))
	return ToolResult{Result: result, measured: measuredText{ok: true, chars: units, head: h.String()}}, whole || h.full
}

// headRead is how much of a text's start is decoded for its head: any head of rowHeadMax units fits,
// with room for the tabs, newlines and control characters among them.
const headRead = 4 * rowHeadMax

// rowText is the text's length in UTF-16 units and its head, as a row shows them.
func (r ToolResult) rowText() (int64, string) {
	switch {
	case r.measured.ok:
		return r.measured.chars, r.measured.head
	case r.Text != nil:
		return int64(jstext.Len16(*r.Text)), rowHead(*r.Text)
	}
	return 0, ""
}
