package qwen

import "github.com/saverd/saverd/internal/jsonscan"

// The one-pass reader of a chat record the record reader must read (an assistant's call, the first
// records of a file): the members line holds, through internal/jsonscan, in place, stepping over the
// rest (texts, a call's arguments) while checking it. It answers what the decoder answers, or false
// whenever it is not sure that it would: invalid JSON, an escaped, repeated or case-folded member name, a
// value of another type than the decoder expects (a null string included), a number that is not a plain
// integer. The caller then decodes the record with the decoder, which decides and words the error;
// FuzzFastLine holds the two to the same answer.

// The members each object is decoded into: a key the decoder would fold to one of them, written
// otherwise, is left to the decoder.
var (
	lineNames    = []string{"uuid", "sessionId", "timestamp", "type", "cwd", "model", "message", "usageMetadata"}
	messageNames = []string{"parts"}
	partNames    = []string{"functionCall"}
	callNames    = []string{"name"}
	usageNames   = []string{"promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount", "totalTokenCount"}
)

// fastLine holds a record's scanner.
type fastLine struct{ c jsonscan.Scanner }

// read fills l, zero on entry, from raw; false: leave the record to the decoder (l is then to be reset).
// The type and timestamp point into raw; every other string is a copy, which the record may keep.
func (f *fastLine) read(raw []byte, l *line) bool {
	f.c = jsonscan.New(raw)
	c := &f.c
	if !c.Enter() {
		return false
	}
	var seen [8]bool
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
		case "uuid":
			dst, ok = &l.UUID, jsonscan.Once(&seen[0])
		case "sessionId":
			dst, ok = &l.SessionID, jsonscan.Once(&seen[1])
		case "timestamp":
			if ok = jsonscan.Once(&seen[2]); ok {
				l.Timestamp, ok = c.InPlace()
			}
		case "type":
			if ok = jsonscan.Once(&seen[3]); ok {
				l.Type, ok = c.InPlace()
			}
		case "cwd":
			dst, ok = &l.Cwd, jsonscan.Once(&seen[4])
		case "model":
			dst, ok = &l.Model, jsonscan.Once(&seen[5])
		case "message":
			ok = jsonscan.Once(&seen[6]) && (f.null() || f.message(l))
		case "usageMetadata":
			if ok = jsonscan.Once(&seen[7]); ok && !f.null() {
				ok = f.usage(l)
			}
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

// null reads a null where an object or array stands (the decoder leaves it as it was), and reports
// whether it was one.
func (f *fastLine) null() bool { return f.c.Peek() == 'n' && f.c.Literal("null") }

// message reads the message's parts: the name of each function call.
func (f *fastLine) message(l *line) bool {
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
		case "parts":
			ok = jsonscan.Once(&seen) && (f.null() || f.parts(l))
		default:
			ok = !jsonscan.FoldsTo(key, messageNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// parts reads the parts array, one element of line's Parts each.
func (f *fastLine) parts(l *line) bool {
	parts := &l.Message.Parts
	*parts = []part{} // an empty array is an empty slice, as the decoder makes it
	return f.c.Array(func() bool {
		*parts = append(*parts, part{})
		return f.null() || f.part(&(*parts)[len(*parts)-1])
	})
}

// part reads a part's functionCall name.
func (f *fastLine) part(p *part) bool {
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
		case "functionCall":
			if ok = jsonscan.Once(&seen); ok && !f.null() {
				p.Call = &call{}
				ok = f.call(p.Call)
			}
		default:
			ok = !jsonscan.FoldsTo(key, partNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// call reads a function call's name, stepping over its arguments.
func (f *fastLine) call(fc *call) bool {
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
				fc.Name, ok = c.String()
			}
		default:
			ok = !jsonscan.FoldsTo(key, callNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// usage reads usageMetadata's counts.
func (f *fastLine) usage(l *line) bool {
	c := &f.c
	u := new(usage)
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
			l.Usage = u
			return true
		}
		switch string(key) {
		case "promptTokenCount":
			ok = jsonscan.Once(&seen[0]) && c.Integer(&u.Prompt)
		case "candidatesTokenCount":
			ok = jsonscan.Once(&seen[1]) && c.Integer(&u.Candidates)
		case "thoughtsTokenCount":
			ok = jsonscan.Once(&seen[2]) && c.Integer(&u.Thoughts)
		case "cachedContentTokenCount":
			ok = jsonscan.Once(&seen[3]) && c.Integer(&u.Cached)
		case "totalTokenCount":
			ok = jsonscan.Once(&seen[4]) && c.Integer(&u.Total)
		default:
			ok = !jsonscan.FoldsTo(key, usageNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}
