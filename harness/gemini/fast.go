package gemini

import (
	"strings"

	"github.com/saverd/saverd/internal/jsonscan"
)

// The one-pass reader of a session line the record reader must read (a header, a gemini message, a
// rewind): the members the decoder's short form reads (parser.decode without full), through
// internal/jsonscan, in place. Gemini CLI writes each message that called a tool a second time, with the
// tool's whole result inside; the decoder decodes that result's strings only to drop them, where this
// reader only steps over them, checking them as it goes. It answers what parser.decode answers, or false
// whenever it is not sure that it would: invalid JSON, an escaped, repeated or case-folded member name, a
// value of another type than the decoder expects (a null string included), a number that is not a plain
// integer, a whole-history messages array. The caller then decodes the line with the decoder, which
// decides and words the error; FuzzFastLine holds the two to the same answer.

// The members each object is decoded into: a key the decoder would fold to one of them, written
// otherwise, is left to the decoder.
var (
	lineNames = []string{"sessionId", "projectHash", "startTime", "lastUpdated", "kind", "id", "timestamp", "type",
		"model", "tokens", "$set", "$rewindTo", "messages", "content", "toolCalls"}
	tokenNames = []string{"input", "output", "cached", "thoughts", "tool"}
	setNames   = []string{"lastUpdated"}
	callNames  = []string{"name"}
)

// fastLine holds a line's scanner.
type fastLine struct{ c jsonscan.Scanner }

// read fills l, zero on entry, from raw; false: leave the line to the decoder (l is then to be reset).
// Every string it keeps is a copy (the message's type one of Gemini CLI's own words), as the decoder's are.
func (f *fastLine) read(raw []byte, l *line) bool {
	f.c = jsonscan.New(raw)
	c := &f.c
	if !c.Enter() {
		return false
	}
	var seen [15]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			break
		}
		var dst *string
		switch string(key) {
		case "sessionId":
			dst, ok = &l.SessionID, jsonscan.Once(&seen[0])
		case "projectHash":
			dst, ok = &l.ProjectHash, jsonscan.Once(&seen[1])
		case "startTime":
			dst, ok = &l.StartTime, jsonscan.Once(&seen[2])
		case "lastUpdated":
			dst, ok = &l.LastUpdated, jsonscan.Once(&seen[3])
		case "kind":
			dst, ok = &l.Kind, jsonscan.Once(&seen[4])
		case "id":
			dst, ok = &l.ID, jsonscan.Once(&seen[5])
		case "timestamp":
			dst, ok = &l.Timestamp, jsonscan.Once(&seen[6])
		case "type":
			if ok = jsonscan.Once(&seen[7]); ok {
				var v string
				if v, ok = c.InPlace(); ok {
					l.Type = word(v)
				}
			}
		case "model":
			dst, ok = &l.Model, jsonscan.Once(&seen[8])
		case "tokens":
			ok = jsonscan.Once(&seen[9]) && (f.null() || f.tokens(l))
		case "$set":
			ok = jsonscan.Once(&seen[10]) && (f.null() || f.set(l))
		case "$rewindTo":
			if ok = jsonscan.Once(&seen[11]); ok && !f.null() {
				var v string
				if v, ok = c.String(); ok {
					l.RewindTo = &v
				}
			}
		case "messages":
			return false // an older whole-session object: the decoder's
		case "content":
			ok = jsonscan.Once(&seen[13]) && c.Skip()
		case "toolCalls":
			ok = jsonscan.Once(&seen[14]) && (f.null() || f.toolCalls(l))
		default:
			ok = !jsonscan.FoldsTo(key, lineNames) && c.Skip()
		}
		if dst != nil && ok {
			*dst, ok = c.String()
		}
		if !ok {
			return false
		}
	}
	return c.End()
}

// word is a message's type: Gemini CLI's own words shared, anything else copied.
func word(v string) string {
	switch v {
	case "gemini":
		return "gemini"
	case "user":
		return "user"
	case "info":
		return "info"
	}
	return strings.Clone(v)
}

// null reads a null where an object or array stands (the decoder leaves it nil), and reports whether it
// was one.
func (f *fastLine) null() bool { return f.c.Peek() == 'n' && f.c.Literal("null") }

// tokens reads a message's usage.
func (f *fastLine) tokens(l *line) bool {
	c := &f.c
	t := new(tokens)
	if !c.Enter() {
		return false
	}
	var seen [5]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			l.Tokens = t
			return true
		}
		switch string(key) {
		case "input":
			ok = jsonscan.Once(&seen[0]) && c.Integer(&t.Input)
		case "output":
			ok = jsonscan.Once(&seen[1]) && c.Integer(&t.Output)
		case "cached":
			ok = jsonscan.Once(&seen[2]) && c.Integer(&t.Cached)
		case "thoughts":
			ok = jsonscan.Once(&seen[3]) && c.Integer(&t.Thoughts)
		case "tool":
			ok = jsonscan.Once(&seen[4]) && c.Integer(&t.Tool)
		default:
			ok = !jsonscan.FoldsTo(key, tokenNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// set reads a metadata update's lastUpdated (its snapshot of the messages is stepped over).
func (f *fastLine) set(l *line) bool {
	c := &f.c
	st := new(set)
	if !c.Enter() {
		return false
	}
	seen := false
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			l.Set = st
			return true
		}
		switch string(key) {
		case "lastUpdated":
			if ok = jsonscan.Once(&seen); ok {
				st.LastUpdated, ok = c.String()
			}
		default:
			ok = !jsonscan.FoldsTo(key, setNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// toolCalls reads the names of a message's tool calls, stepping over their arguments and results.
func (f *fastLine) toolCalls(l *line) bool {
	c := &f.c
	calls := []toolCall{}
	ok := c.Array(func() bool {
		var tc toolCall
		if !f.null() {
			if !f.call(&tc) {
				return false
			}
		}
		calls = append(calls, tc)
		return true
	})
	if ok && len(calls) > 0 {
		l.ToolCalls = calls
	}
	return ok
}

// call reads one tool call's name.
func (f *fastLine) call(tc *toolCall) bool {
	c := &f.c
	if !c.Enter() {
		return false
	}
	seen := false
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "name":
			if ok = jsonscan.Once(&seen); ok {
				tc.Name, ok = c.String()
			}
		default:
			ok = !jsonscan.FoldsTo(key, callNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}
