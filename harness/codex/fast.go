package codex

import "github.com/saverd/saverd/internal/jsonscan"

// The one-pass reader of a rollout line the quick pass leaves (token_usage_record, token_count, a tool
// call, session_meta, turn_context): the envelope's timestamp and type and the payload's members that
// codexPayload holds, read in place through internal/jsonscan, as harness/claude's fastLine reads a
// transcript line. It answers what decodeRollout answers, or false whenever it is not sure that it
// would: invalid JSON, an escaped, repeated or case-folded member name, a value of another type than the
// decoder expects (null included), a number that is not a plain integer. The caller then decodes the line
// with the decoder, which decides and words the error; FuzzFastRollout holds the two to the same answer.

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

// null reads a null that stands for an object (the decoder leaves its pointer nil: Codex 0.58 wrote a
// token_count's info as null before the first response), and reports whether it was one.
func (f *fastRollout) null() bool { return f.c.Peek() == 'n' && f.c.Literal("null") }

// read fills l and p, zero on entry, from line; false: leave the line to the decoder (l and p are then
// to be reset). The envelope's strings, the payload's and its item's type and the response id point
// into line; every other string is a copy, which the session may keep.
func (f *fastRollout) read(line []byte, l *codexLine, p *codexPayload) bool {
	f.c = jsonscan.New(line)
	c := &f.c
	if !c.Enter() {
		return false
	}
	var seen [3]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			break
		}
		switch string(key) {
		case "timestamp":
			if ok = jsonscan.Once(&seen[0]); ok {
				l.Timestamp, ok = c.InPlace()
			}
		case "type":
			if ok = jsonscan.Once(&seen[1]); ok {
				l.Type, ok = c.InPlace()
			}
		case "payload":
			ok = jsonscan.Once(&seen[2]) && f.payload(p)
		default:
			ok = !jsonscan.FoldsTo(key, lineNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
	return c.End()
}

// payload reads the payload object's members that codexPayload holds.
func (f *fastRollout) payload(p *codexPayload) bool {
	c := &f.c
	if !c.Enter() {
		return false
	}
	var seen [14]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		var dst *string
		switch string(key) {
		case "type":
			if ok = jsonscan.Once(&seen[0]); ok {
				p.Type, ok = c.InPlace()
			}
		case "id":
			dst, ok = &p.ID, jsonscan.Once(&seen[1])
		case "timestamp":
			dst, ok = &p.Timestamp, jsonscan.Once(&seen[2])
		case "cwd":
			dst, ok = &p.Cwd, jsonscan.Once(&seen[3])
		case "turn_id":
			dst, ok = &p.TurnID, jsonscan.Once(&seen[4])
		case "model":
			dst, ok = &p.Model, jsonscan.Once(&seen[5])
		case "response_id": // only ever copied into a call's key
			if ok = jsonscan.Once(&seen[6]); ok {
				p.ResponseID, ok = c.InPlace()
			}
		case "name":
			dst, ok = &p.Name, jsonscan.Once(&seen[7])
		case "call_id":
			dst, ok = &p.CallID, jsonscan.Once(&seen[8])
		case "usage":
			if ok = jsonscan.Once(&seen[9]); ok && !f.null() {
				if ok = f.counts(&f.usage); ok {
					p.Usage = &f.usage
				}
			}
		case "thread_token_usage":
			if ok = jsonscan.Once(&seen[10]); ok && !f.null() {
				if ok = f.counts(&f.thread); ok {
					p.Thread = &f.thread
				}
			}
		case "info":
			if ok = jsonscan.Once(&seen[11]); ok && !f.null() {
				if ok = f.readInfo(); ok {
					p.Info = &f.info
				}
			}
		case "item":
			if ok = jsonscan.Once(&seen[12]); ok && !f.null() {
				if ok = f.readItem(); ok {
					p.Item = &f.item
				}
			}
		case "metadata":
			if ok = jsonscan.Once(&seen[13]); ok && !f.null() {
				if ok = f.readMeta(); ok {
					p.Metadata = &f.meta
				}
			}
		default:
			ok = !jsonscan.FoldsTo(key, payloadNames) && c.Skip()
		}
		if dst != nil && ok {
			*dst, ok = c.String()
		}
		if !ok {
			return false
		}
	}
}

// counts reads a usage object into u.
func (f *fastRollout) counts(u *codexUsage) bool {
	c := &f.c
	*u = codexUsage{}
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
			return true
		}
		switch string(key) {
		case "input_tokens":
			ok = jsonscan.Once(&seen[0]) && c.Integer(&u.Input)
		case "cached_input_tokens":
			ok = jsonscan.Once(&seen[1]) && c.Integer(&u.Cached)
		case "cache_write_input_tokens":
			ok = jsonscan.Once(&seen[2]) && c.Integer(&u.CacheWrite)
		case "output_tokens":
			ok = jsonscan.Once(&seen[3]) && c.Integer(&u.Output)
		case "total_tokens":
			ok = jsonscan.Once(&seen[4]) && c.Integer(&u.Total)
		default:
			ok = !jsonscan.FoldsTo(key, usageNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// readInfo reads a token_count's info: the session's total and the last response's usage.
func (f *fastRollout) readInfo() bool {
	c := &f.c
	f.info = codexInfo{}
	if !c.Enter() {
		return false
	}
	var seen [2]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "total_token_usage":
			if ok = jsonscan.Once(&seen[0]); ok && !f.null() {
				if ok = f.counts(&f.total); ok {
					f.info.Total = &f.total
				}
			}
		case "last_token_usage":
			if ok = jsonscan.Once(&seen[1]); ok && !f.null() {
				if ok = f.counts(&f.last); ok {
					f.info.Last = &f.last
				}
			}
		default:
			ok = !jsonscan.FoldsTo(key, infoNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// readItem reads an item_completed event's item: its type (in place) and id.
func (f *fastRollout) readItem() bool {
	c := &f.c
	f.item = codexItem{}
	if !c.Enter() {
		return false
	}
	var seen [2]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "type":
			if ok = jsonscan.Once(&seen[0]); ok {
				f.item.Type, ok = c.InPlace()
			}
		case "id":
			if ok = jsonscan.Once(&seen[1]); ok {
				f.item.ID, ok = c.String()
			}
		default:
			ok = !jsonscan.FoldsTo(key, itemNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// readMeta reads a response item's metadata: whether a compaction replayed it.
func (f *fastRollout) readMeta() bool {
	c := &f.c
	f.meta = codexMeta{}
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
		case "compaction_output":
			if ok = jsonscan.Once(&seen); ok {
				switch c.Peek() {
				case 't':
					f.meta.CompactionOutput, ok = true, c.Literal("true")
				case 'f':
					ok = c.Literal("false")
				default:
					ok = false
				}
			}
		default:
			ok = !jsonscan.FoldsTo(key, metaNames) && c.Skip()
		}
		if !ok {
			return false
		}
	}
}
