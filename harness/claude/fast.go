package claude

import "github.com/saverd/saverd/internal/jsonscan"

// fastLine is the one-pass reader of a transcript line the reader must decode (an assistant message, the
// first lines of a file): the envelope's few strings, message.id, model and usage, and the content's
// blocks, read in place. It answers what parseLine and the blocks' decode answer, or false whenever it
// is not sure that it would: invalid JSON, an escaped or repeated member name, a value of another type
// than the decoder expects (null included), a number that is not a plain integer, a cost-state's fields,
// a content array holding anything but objects. The caller then decodes the line with the decoder, which
// decides and words the error; FuzzFastLine holds the two to the same answer.
//
// The strings point into the line, as the decoder's do; blocks and usage are the session's scratch.
type fastLine struct {
	c      jsonscan.Scanner
	usage  claudeUsage
	w      cacheCreation
	blocks []block
	// parsed: blocks hold the content's blocks (the content is an array of objects).
	parsed bool
}

type cacheCreation = struct {
	W5m int64 `json:"ephemeral_5m_input_tokens"`
	W1h int64 `json:"ephemeral_1h_input_tokens"`
}

// read fills l, zero on entry, from line; false: leave the line to the decoder (l is then to be reset).
func (f *fastLine) read(line []byte, l *claudeLine) bool {
	f.blocks, f.parsed = f.blocks[:0], false
	f.c = jsonscan.New(line)
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
		case "type":
			dst, ok = &l.Type, jsonscan.Once(&seen[0])
		case "timestamp":
			dst, ok = &l.Timestamp, jsonscan.Once(&seen[1])
		case "cwd":
			dst, ok = &l.Cwd, jsonscan.Once(&seen[2])
		case "sessionId":
			dst, ok = &l.SessionID, jsonscan.Once(&seen[3])
		case "requestId":
			dst, ok = &l.RequestID, jsonscan.Once(&seen[4])
		case "requestSessionId":
			dst, ok = &l.RequestSession, jsonscan.Once(&seen[7])
		case "uuid":
			dst, ok = &l.UUID, jsonscan.Once(&seen[5])
		case "message":
			ok = jsonscan.Once(&seen[6]) && f.message(&l.Message)
		case "totalCostUSD", "modelUsage":
			return false // a cost-state: the decoder's
		default:
			ok = c.Skip()
		}
		if dst != nil && ok {
			*dst, ok = c.InPlace()
		}
		if !ok {
			return false
		}
	}
	return c.End()
}

// message reads the message object: id, model, usage and content.
func (f *fastLine) message(m *claudeMessage) bool {
	c := &f.c
	if !c.Enter() {
		return false
	}
	var seen [4]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "id":
			if ok = jsonscan.Once(&seen[0]); ok {
				m.ID, ok = c.InPlace()
			}
		case "model":
			if ok = jsonscan.Once(&seen[1]); ok {
				m.Model, ok = c.InPlace()
			}
		case "usage":
			if ok = jsonscan.Once(&seen[2]) && f.readUsage(); ok {
				m.Usage = &f.usage
			}
		case "content":
			if ok = jsonscan.Once(&seen[3]); ok {
				m.Content, ok = f.content()
			}
		default:
			ok = c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// readUsage reads the usage object's counts.
func (f *fastLine) readUsage() bool {
	c := &f.c
	f.usage = claudeUsage{}
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
			ok = jsonscan.Once(&seen[0]) && c.Integer(&f.usage.Input)
		case "output_tokens":
			ok = jsonscan.Once(&seen[1]) && c.Integer(&f.usage.Output)
		case "cache_read_input_tokens":
			ok = jsonscan.Once(&seen[2]) && c.Integer(&f.usage.CacheRead)
		case "cache_creation_input_tokens":
			ok = jsonscan.Once(&seen[3]) && c.Integer(&f.usage.CacheCreate)
		case "cache_creation":
			if ok = jsonscan.Once(&seen[4]) && f.readCreation(); ok {
				f.usage.Creation = &f.w
			}
		default:
			ok = c.Skip()
		}
		if !ok {
			return false
		}
	}
}

func (f *fastLine) readCreation() bool {
	c := &f.c
	f.w = cacheCreation{}
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
		case "ephemeral_5m_input_tokens":
			ok = jsonscan.Once(&seen[0]) && c.Integer(&f.w.W5m)
		case "ephemeral_1h_input_tokens":
			ok = jsonscan.Once(&seen[1]) && c.Integer(&f.w.W1h)
		default:
			ok = c.Skip()
		}
		if !ok {
			return false
		}
	}
}

// content reads message.content as written and, when it is an array of objects, its blocks' type, id
// and name.
func (f *fastLine) content() ([]byte, bool) {
	c := &f.c
	start := c.Offset()
	switch c.Peek() {
	case 'n':
		return nil, false // null: the decoder's
	case '[':
		ok := c.Array(func() bool {
			b, ok := f.block()
			f.blocks = append(f.blocks, b)
			return ok
		})
		if !ok {
			return nil, false
		}
		f.parsed = true
	default:
		if !c.Skip() {
			return nil, false
		}
	}
	return c.Since(start), true
}

// block reads one content block's type, id and name.
func (f *fastLine) block() (block, bool) {
	c := &f.c
	var b block
	if !c.Enter() {
		return b, false
	}
	var seen [3]bool
	for {
		key, more, ok := c.Key()
		if !ok {
			return b, false
		}
		if !more {
			return b, true
		}
		switch string(key) {
		case "type":
			if ok = jsonscan.Once(&seen[0]); ok {
				b.Type, ok = c.InPlace()
			}
		case "id":
			if ok = jsonscan.Once(&seen[1]); ok {
				b.ID, ok = c.InPlace()
			}
		case "name":
			if ok = jsonscan.Once(&seen[2]); ok {
				b.Name, ok = c.InPlace()
			}
		default:
			ok = c.Skip()
		}
		if !ok {
			return b, false
		}
	}
}
