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
// The type and timestamp point into raw; every other string is a copy, which the record may keep. A null
// object or array leaves its field as it was, as the decoder does.
func (f *fastLine) read(raw []byte, l *line) bool {
	f.c = jsonscan.New(raw)
	c := &f.c
	var seen [8]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "uuid":
			return jsonscan.Once(&seen[0]) && f.str(&l.UUID)
		case "sessionId":
			return jsonscan.Once(&seen[1]) && f.str(&l.SessionID)
		case "timestamp":
			return jsonscan.Once(&seen[2]) && f.inPlace(&l.Timestamp)
		case "type":
			return jsonscan.Once(&seen[3]) && f.inPlace(&l.Type)
		case "cwd":
			return jsonscan.Once(&seen[4]) && f.str(&l.Cwd)
		case "model":
			return jsonscan.Once(&seen[5]) && f.str(&l.Model)
		case "message":
			return jsonscan.Once(&seen[6]) && (c.Null() || f.message(l))
		case "usageMetadata":
			return jsonscan.Once(&seen[7]) && (c.Null() || f.usage(l))
		}
		return !jsonscan.FoldsTo(key, lineNames) && c.Skip()
	}) && c.End()
}

// str reads a string into *dst, a copy; inPlace, in place in the record.
func (f *fastLine) str(dst *string) (ok bool) {
	*dst, ok = f.c.String()
	return ok
}

func (f *fastLine) inPlace(dst *string) (ok bool) {
	*dst, ok = f.c.InPlace()
	return ok
}

// message reads the message's parts: the name of each function call.
func (f *fastLine) message(l *line) bool {
	c := &f.c
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) == "parts" {
			return jsonscan.Once(&seen) && (c.Null() || f.parts(l))
		}
		return !jsonscan.FoldsTo(key, messageNames) && c.Skip()
	})
}

// parts reads the parts array, one element of line's Parts each.
func (f *fastLine) parts(l *line) bool {
	c := &f.c
	parts := []part{} // an empty array is an empty slice, as the decoder makes it
	ok := c.Array(func() bool {
		parts = append(parts, part{})
		return c.Null() || f.part(&parts[len(parts)-1])
	})
	l.Message.Parts = parts
	return ok
}

// part reads a part's functionCall name.
func (f *fastLine) part(p *part) bool {
	c := &f.c
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) != "functionCall" {
			return !jsonscan.FoldsTo(key, partNames) && c.Skip()
		}
		if !jsonscan.Once(&seen) {
			return false
		}
		if c.Null() {
			return true
		}
		p.Call = &call{}
		return f.call(p.Call)
	})
}

// call reads a function call's name, stepping over its arguments.
func (f *fastLine) call(fc *call) bool {
	c := &f.c
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) == "name" {
			return jsonscan.Once(&seen) && f.str(&fc.Name)
		}
		return !jsonscan.FoldsTo(key, callNames) && c.Skip()
	})
}

// usage reads usageMetadata's counts.
func (f *fastLine) usage(l *line) bool {
	c := &f.c
	u := new(usage)
	l.Usage = u
	var seen [5]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "promptTokenCount":
			return jsonscan.Once(&seen[0]) && c.Integer(&u.Prompt)
		case "candidatesTokenCount":
			return jsonscan.Once(&seen[1]) && c.Integer(&u.Candidates)
		case "thoughtsTokenCount":
			return jsonscan.Once(&seen[2]) && c.Integer(&u.Thoughts)
		case "cachedContentTokenCount":
			return jsonscan.Once(&seen[3]) && c.Integer(&u.Cached)
		case "totalTokenCount":
			return jsonscan.Once(&seen[4]) && c.Integer(&u.Total)
		}
		return !jsonscan.FoldsTo(key, usageNames) && c.Skip()
	})
}
