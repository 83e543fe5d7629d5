package codex

import "github.com/saverd/saverd/internal/jsonscan"

// The one-pass reader of a rollout line the quick pass leaves (token_usage_record, token_count, a tool
// call, session_meta, turn_context): the envelope's timestamp and type and the payload's members that
// codexPayload holds, read in place through internal/jsonscan, as harness/claude's fastLine reads a
// transcript line. It answers what decodeRollout answers, or false whenever it is not sure that it
// would: invalid JSON, an escaped, repeated or case-folded member name, a value of another type than the
// decoder expects (a null string included), a number that is not a plain integer. The caller then decodes
// the line with the decoder, which decides and words the error; FuzzFastRollout holds the two to the same
// answer.

// The members each object is decoded into: a key the decoder would fold to one of them, written
// otherwise, is left to the decoder.
var (
	lineNames    = []string{"timestamp", "type", "payload"}
	payloadNames = []string{"type", "id", "timestamp", "cwd", "turn_id", "model", "response_id", "name", "call_id",
		"usage", "thread_token_usage", "info", "item", "metadata"}
	usageNames = []string{"input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens", "total_tokens"}
	infoNames  = []string{"total_token_usage", "last_token_usage"}
	itemNames  = []string{"type", "id"}
	metaNames  = []string{"compaction_output"}
)

// fastRollout holds a line's scanner and the payload's objects, reused from line to line: what the
// record keeps of them is copied (a codexUsage is kept by value).
type fastRollout struct {
	c             jsonscan.Scanner
	usage, thread codexUsage
	info          codexInfo
	total, last   codexUsage
	item          codexItem
	meta          codexMeta
}

// read fills l and p, zero on entry, from line; false: leave the line to the decoder (l and p are then
// to be reset). The envelope's strings, the payload's and its item's type and the response id point
// into line; every other string is a copy, which the session may keep.
func (f *fastRollout) read(line []byte, l *codexLine, p *codexPayload) bool {
	f.c = jsonscan.New(line)
	c := &f.c
	var seen [3]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "timestamp":
			return jsonscan.Once(&seen[0]) && inPlace(c, &l.Timestamp)
		case "type":
			return jsonscan.Once(&seen[1]) && inPlace(c, &l.Type)
		case "payload":
			return jsonscan.Once(&seen[2]) && f.payload(p)
		}
		return !jsonscan.FoldsTo(key, lineNames) && c.Skip()
	}) && c.End() && !direct(l.Type) // an item bare on its line is its own payload: the decoder's
}

// inPlace and copied read a string into *dst: in place in the line, or a copy the session may keep.
func inPlace(c *jsonscan.Scanner, dst *string) (ok bool) {
	*dst, ok = c.InPlace()
	return ok
}

func copied(c *jsonscan.Scanner, dst *string) (ok bool) {
	*dst, ok = c.String()
	return ok
}

// payload reads the payload object's members that codexPayload holds. A null object leaves its pointer
// nil, as the decoder does (Codex 0.58 wrote a token_count's info as null before the first response).
func (f *fastRollout) payload(p *codexPayload) bool {
	c := &f.c
	var seen [14]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return jsonscan.Once(&seen[0]) && inPlace(c, &p.Type)
		case "id":
			return jsonscan.Once(&seen[1]) && copied(c, &p.ID)
		case "timestamp":
			return jsonscan.Once(&seen[2]) && copied(c, &p.Timestamp)
		case "cwd":
			return jsonscan.Once(&seen[3]) && copied(c, &p.Cwd)
		case "turn_id":
			return jsonscan.Once(&seen[4]) && copied(c, &p.TurnID)
		case "model":
			return jsonscan.Once(&seen[5]) && copied(c, &p.Model)
		case "response_id": // only ever copied into a call's key
			return jsonscan.Once(&seen[6]) && inPlace(c, &p.ResponseID)
		case "name":
			return jsonscan.Once(&seen[7]) && copied(c, &p.Name)
		case "call_id":
			return jsonscan.Once(&seen[8]) && copied(c, &p.CallID)
		case "usage":
			return jsonscan.Once(&seen[9]) && (c.Null() || f.counts(&f.usage, &p.Usage))
		case "thread_token_usage":
			return jsonscan.Once(&seen[10]) && (c.Null() || f.counts(&f.thread, &p.Thread))
		case "info":
			return jsonscan.Once(&seen[11]) && (c.Null() || f.readInfo(&p.Info))
		case "item":
			return jsonscan.Once(&seen[12]) && (c.Null() || f.readItem(&p.Item))
		case "metadata":
			return jsonscan.Once(&seen[13]) && (c.Null() || f.readMeta(&p.Metadata))
		}
		return !jsonscan.FoldsTo(key, payloadNames) && c.Skip()
	})
}

// counts reads a usage object into u, and points *dst at it.
func (f *fastRollout) counts(u *codexUsage, dst **codexUsage) bool {
	c := &f.c
	*u = codexUsage{}
	var seen [5]bool
	*dst = u
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "input_tokens":
			return jsonscan.Once(&seen[0]) && c.Integer(&u.Input)
		case "cached_input_tokens":
			return jsonscan.Once(&seen[1]) && c.Integer(&u.Cached)
		case "cache_write_input_tokens":
			return jsonscan.Once(&seen[2]) && c.Integer(&u.CacheWrite)
		case "output_tokens":
			return jsonscan.Once(&seen[3]) && c.Integer(&u.Output)
		case "total_tokens":
			return jsonscan.Once(&seen[4]) && c.Integer(&u.Total)
		}
		return !jsonscan.FoldsTo(key, usageNames) && c.Skip()
	})
}

// readInfo reads a token_count's info: the session's total and the last response's usage.
func (f *fastRollout) readInfo(dst **codexInfo) bool {
	c := &f.c
	f.info = codexInfo{}
	*dst = &f.info
	var seen [2]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "total_token_usage":
			return jsonscan.Once(&seen[0]) && (c.Null() || f.counts(&f.total, &f.info.Total))
		case "last_token_usage":
			return jsonscan.Once(&seen[1]) && (c.Null() || f.counts(&f.last, &f.info.Last))
		}
		return !jsonscan.FoldsTo(key, infoNames) && c.Skip()
	})
}

// readItem reads an item_completed event's item: its type (in place) and id.
func (f *fastRollout) readItem(dst **codexItem) bool {
	c := &f.c
	f.item = codexItem{}
	*dst = &f.item
	var seen [2]bool
	return c.Object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return jsonscan.Once(&seen[0]) && inPlace(c, &f.item.Type)
		case "id":
			return jsonscan.Once(&seen[1]) && copied(c, &f.item.ID)
		}
		return !jsonscan.FoldsTo(key, itemNames) && c.Skip()
	})
}

// readMeta reads a response item's metadata: whether a compaction replayed it.
func (f *fastRollout) readMeta(dst **codexMeta) bool {
	c := &f.c
	f.meta = codexMeta{}
	*dst = &f.meta
	seen := false
	return c.Object(func(key []byte) bool {
		if string(key) != "compaction_output" {
			return !jsonscan.FoldsTo(key, metaNames) && c.Skip()
		}
		if !jsonscan.Once(&seen) {
			return false
		}
		switch c.Peek() {
		case 't':
			f.meta.CompactionOutput = true
			return c.Literal("true")
		case 'f':
			return c.Literal("false")
		}
		return false
	})
}
