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
// Every string it keeps is a copy (the message's type one of Gemini CLI's own words), as the decoder's
// are; a null object or array leaves its field as it was, as the decoder does.
func (f *fastLine) read(raw []byte, l *line) bool {
	f.c = jsonscan.New(raw)
	c := &f.c
	var seen [15]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "sessionId":
			return jsonscan.Once(&seen[0]) && f.str(&l.SessionID)
		case "projectHash":
			return jsonscan.Once(&seen[1]) && f.str(&l.ProjectHash)
		case "startTime":
			return jsonscan.Once(&seen[2]) && f.str(&l.StartTime)
		case "lastUpdated":
			return jsonscan.Once(&seen[3]) && f.str(&l.LastUpdated)
		case "kind":
			return jsonscan.Once(&seen[4]) && f.str(&l.Kind)
		case "id":
			return jsonscan.Once(&seen[5]) && f.str(&l.ID)
		case "timestamp":
			return jsonscan.Once(&seen[6]) && f.str(&l.Timestamp)
		case "type":
			return jsonscan.Once(&seen[7]) && f.word(&l.Type)
		case "model":
			return jsonscan.Once(&seen[8]) && f.str(&l.Model)
		case "tokens":
			return jsonscan.Once(&seen[9]) && (c.Null() || f.tokens(l))
		case "$set":
			return jsonscan.Once(&seen[10]) && (c.Null() || f.set(l))
		case "$rewindTo":
			return jsonscan.Once(&seen[11]) && (c.Null() || f.rewind(l))
		case "messages":
			return false // an older whole-session object: the decoder's
		case "content":
			return jsonscan.Once(&seen[13]) && c.Skip()
		case "toolCalls":
			return jsonscan.Once(&seen[14]) && (c.Null() || f.toolCalls(l))
		}
		return !jsonscan.FoldsTo(key, lineNames) && c.Skip()
	}) && c.End()
}

// str reads a string into *dst, a copy.
func (f *fastLine) str(dst *string) (ok bool) {
	*dst, ok = f.c.String()
	return ok
}

// word reads a message's type: Gemini CLI's own words shared, anything else copied.
func (f *fastLine) word(dst *string) bool {
	v, ok := f.c.InPlace()
	switch v {
	case "gemini":
		*dst = "gemini"
	case "user":
		*dst = "user"
	case "info":
		*dst = "info"
	default:
		*dst = strings.Clone(v)
	}
	return ok
}

func (f *fastLine) rewind(l *line) bool {
	var v string
	if !f.str(&v) {
		return false
	}
	l.RewindTo = &v
	return true
}

// tokens reads a message's usage.
func (f *fastLine) tokens(l *line) bool {
	c := &f.c
	t := new(tokens)
	l.Tokens = t
	var seen [5]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "input":
			return jsonscan.Once(&seen[0]) && c.Integer(&t.Input)
		case "output":
			return jsonscan.Once(&seen[1]) && c.Integer(&t.Output)
		case "cached":
			return jsonscan.Once(&seen[2]) && c.Integer(&t.Cached)
		case "thoughts":
			return jsonscan.Once(&seen[3]) && c.Integer(&t.Thoughts)
		case "tool":
			return jsonscan.Once(&seen[4]) && c.Integer(&t.Tool)
		}
		return !jsonscan.FoldsTo(key, tokenNames) && c.Skip()
	})
}

// set reads a metadata update's lastUpdated (its snapshot of the messages is stepped over).
func (f *fastLine) set(l *line) bool {
	c := &f.c
	l.Set = new(set)
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) == "lastUpdated" {
			return jsonscan.Once(&seen) && f.str(&l.Set.LastUpdated)
		}
		return !jsonscan.FoldsTo(key, setNames) && c.Skip()
	})
}

// toolCalls reads the names of a message's tool calls, stepping over their arguments and results.
func (f *fastLine) toolCalls(l *line) bool {
	c := &f.c
	var calls []toolCall
	ok := c.Array(func() bool {
		calls = append(calls, toolCall{})
		return c.Null() || f.call(&calls[len(calls)-1])
	})
	l.ToolCalls = calls
	return ok
}

// call reads one tool call's name.
func (f *fastLine) call(tc *toolCall) bool {
	c := &f.c
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) == "name" {
			return jsonscan.Once(&seen) && f.str(&tc.Name)
		}
		return !jsonscan.FoldsTo(key, callNames) && c.Skip()
	})
}
