package agentlog

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
	c      cursor
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
	f.c = cursor{d: line}
	c := &f.c
	if !c.enter() {
		return false
	}
	var seen [7]bool
	for first := true; ; first = false {
		key, more, ok := c.key(first)
		if !ok {
			return false
		}
		if !more {
			break
		}
		var dst *string
		switch string(key) {
		case "type":
			dst, ok = &l.Type, once(&seen[0])
		case "timestamp":
			dst, ok = &l.Timestamp, once(&seen[1])
		case "cwd":
			dst, ok = &l.Cwd, once(&seen[2])
		case "sessionId":
			dst, ok = &l.SessionID, once(&seen[3])
		case "requestId":
			dst, ok = &l.RequestID, once(&seen[4])
		case "uuid":
			dst, ok = &l.UUID, once(&seen[5])
		case "message":
			ok = once(&seen[6]) && f.message(&l.Message)
		case "totalCostUSD", "modelUsage":
			return false // a cost-state: the decoder's
		default:
			ok = c.skip()
		}
		if dst != nil && ok {
			*dst, ok = c.str()
		}
		if !ok {
			return false
		}
	}
	c.space()
	return c.i == len(line)
}

// once marks a member as read and reports whether it was the first time: a member given twice is the
// decoder's (which keeps the last).
func once(seen *bool) bool {
	was := *seen
	*seen = true
	return !was
}

// message reads the message object: id, model, usage and content.
func (f *fastLine) message(m *claudeMessage) bool {
	c := &f.c
	if !c.enter() {
		return false
	}
	var seen [4]bool
	for first := true; ; first = false {
		key, more, ok := c.key(first)
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "id":
			if ok = once(&seen[0]); ok {
				m.ID, ok = c.str()
			}
		case "model":
			if ok = once(&seen[1]); ok {
				m.Model, ok = c.str()
			}
		case "usage":
			if ok = once(&seen[2]) && f.readUsage(); ok {
				m.Usage = &f.usage
			}
		case "content":
			if ok = once(&seen[3]); ok {
				m.Content, ok = f.content()
			}
		default:
			ok = c.skip()
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
	if !c.enter() {
		return false
	}
	var seen [5]bool
	for first := true; ; first = false {
		key, more, ok := c.key(first)
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "input_tokens":
			ok = once(&seen[0]) && c.integer(&f.usage.Input)
		case "output_tokens":
			ok = once(&seen[1]) && c.integer(&f.usage.Output)
		case "cache_read_input_tokens":
			ok = once(&seen[2]) && c.integer(&f.usage.CacheRead)
		case "cache_creation_input_tokens":
			ok = once(&seen[3]) && c.integer(&f.usage.CacheCreate)
		case "cache_creation":
			if ok = once(&seen[4]) && f.readCreation(); ok {
				f.usage.Creation = &f.w
			}
		default:
			ok = c.skip()
		}
		if !ok {
			return false
		}
	}
}

func (f *fastLine) readCreation() bool {
	c := &f.c
	f.w = cacheCreation{}
	if !c.enter() {
		return false
	}
	var seen [2]bool
	for first := true; ; first = false {
		key, more, ok := c.key(first)
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "ephemeral_5m_input_tokens":
			ok = once(&seen[0]) && c.integer(&f.w.W5m)
		case "ephemeral_1h_input_tokens":
			ok = once(&seen[1]) && c.integer(&f.w.W1h)
		default:
			ok = c.skip()
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
	switch c.peek() {
	case 'n':
		return nil, false // null: the decoder's
	case '[':
	default:
		start := c.i
		if !c.skip() {
			return nil, false
		}
		return c.d[start:c.i], true
	}
	start := c.i
	if !c.open() {
		return nil, false
	}
	for more := c.peek() != ']'; more; {
		b, ok := f.block()
		if !ok {
			return nil, false
		}
		f.blocks = append(f.blocks, b)
		if more, ok = c.next(); !ok {
			return nil, false
		}
	}
	if !c.close() {
		return nil, false
	}
	f.parsed = true
	return c.d[start:c.i], true
}

// block reads one content block's type, id and name.
func (f *fastLine) block() (block, bool) {
	c := &f.c
	var b block
	if !c.enter() {
		return b, false
	}
	var seen [3]bool
	for first := true; ; first = false {
		key, more, ok := c.key(first)
		if !ok {
			return b, false
		}
		if !more {
			return b, true
		}
		switch string(key) {
		case "type":
			if ok = once(&seen[0]); ok {
				b.Type, ok = c.str()
			}
		case "id":
			if ok = once(&seen[1]); ok {
				b.ID, ok = c.str()
			}
		case "name":
			if ok = once(&seen[2]); ok {
				b.Name, ok = c.str()
			}
		default:
			ok = c.skip()
		}
		if !ok {
			return b, false
		}
	}
}
