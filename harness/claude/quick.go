package claude

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// quick takes a line that can be no API call and no cost-state without decoding it: only its time
// matters, found by its key. Most of a transcript's bytes are tool results in such lines, and decoding
// them would be most of the reading time. A line that might matter, or whose time cannot be found this
// way, is left to the decoder (false).
func (s *claudeSession) quick(line []byte) bool {
	// What is not even shaped like an object (a truncated or garbled line) goes to the decoder, which
	// reports it; a line shaped like one that holds nothing the record uses is skipped either way.
	t := bytes.TrimSpace(line)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return false
	}
	read := longLine
	if len(line) <= costStateLine {
		read = shortLine
	}
	ts, stamped, ok := read(t)
	if !ok {
		return false
	}
	if !stamped {
		return true // no time at all: nothing to take
	}
	at, ok := s.parseTime(ts)
	if !ok {
		return false
	}
	s.seen(at)
	return true
}

// longLine is shortLine's answer for a longer line, from searches that stop short of its long strings.
func longLine(t []byte) (ts string, stamped, ok bool) {
	if mayBeCall(t) || mayBeCostState(t) {
		return "", false, false
	}
	if ts, ok = stringField(t, timestampKey); ok {
		return ts, true, true
	}
	stamped = bytes.Contains(t, timestampKey)
	return "", stamped, !stamped
}

// anchorAbove is the line length past which the line's own timestamp is told by the "uuid" key written
// just before it (within anchorSpan bytes: the key, a 36-character uuid and the separators).
const (
	anchorAbove = 8 << 10
	anchorSpan  = 64
)

// A cost-state line holds a few numbers per model and starts with its type, so it is looked for in the
// first costStateHead bytes of any line and in the whole of a line up to costStateLine bytes: the search
// never reads the tool results that make lines long.
const (
	costStateHead = 128
	costStateLine = 4 << 10
)

func mayBeCostState(line []byte) bool {
	if len(line) > costStateLine {
		line = line[:costStateHead]
	}
	return indexKey(line, quotedCostState) >= 0 // bytes.Contains, a word at a time
}

// mayBeCall says whether a line may be an assistant message. Every version of Claude Code writes the
// message's role before its content, so only the bytes before the first "content" key are searched: the
// content (a Write's whole file, a long answer) never is. One pass looks for both keys.
func mayBeCall(line []byte) bool {
	p, assistant := indexEither(line, quotedAssistant, contentKey)
	// "assistant" counts when it ends before the first "content"; only "content" can begin at its
	// closing quote.
	return assistant && !bytes.HasPrefix(line[p+len(quotedAssistant)-1:], contentKey)
}

var (
	contentKey      = []byte(`"content"`)
	quotedAssistant = []byte(`"assistant"`)
	quotedCostState = []byte(`"cost-state"`)
	quotedToolUse   = []byte(`"tool_use"`)
	timestampKey    = []byte(`"timestamp"`)
	uuidKey         = []byte(`"uuid"`)
)

// stringField is the string value of the line's own timestamp key, when it can be told without decoding
// and has no escapes. Inside a JSON string every quote is escaped, so a quoted key followed by a colon is
// always a key; but a nested object (a structured tool result) may carry the same key. In a short line
// the key must occur once; in a long one (where reading the whole line again would cost as much as
// decoding it) the first occurrence counts when it follows the line's own "uuid", as Claude Code writes its
// envelope before the tool result. Anything else is left to the decoder (false).
func stringField(line, key []byte) (string, bool) {
	i := indexKey(line, key)
	if i < 0 {
		return "", false
	}
	if len(line) > anchorAbove {
		if indexKey(line[max(0, i-anchorSpan):i], uuidKey) < 0 {
			return "", false
		}
	} else if indexKey(line[i+1:], key) >= 0 {
		return "", false
	}
	return fieldValue(line[i+len(key):])
}

// fieldValue is the string after a key, up to its closing quote, when it holds no escape.
func fieldValue(rest []byte) (string, bool) {
	rest = trimBlanks(rest)
	if len(rest) == 0 || rest[0] != ':' {
		return "", false
	}
	rest = trimBlanks(rest[1:])
	if len(rest) == 0 || rest[0] != '"' {
		return "", false
	}
	rest = rest[1:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(rest), end), true // in place: only parsed, never kept
}

// trimBlanks is bytes.TrimLeft(b, " \t") without building the cutset's table on every call.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// indexKey is bytes.Index(line, key) for a key of at least two bytes that opens with a quote. Each
// eight-byte word is tested at once for the places where the key's first, second and last bytes all
// stand (SWAR), so the quotes of a line's envelope cost no branch each; past a run of quote-free words (a
// tool's output, a file's contents) the rest of the run goes to IndexByte. bytes.Index gives IndexByte up
// after the envelope's many quotes and then compares at every byte.
func indexKey(line, key []byte) int {
	n := len(key)
	k0, k1, kn := ones*uint64(key[0]), ones*uint64(key[1]), ones*uint64(key[n-1])
	i, clean := 0, 0
	for ; i+n-1+8 <= len(line); i += 8 {
		q := zeroBytes(binary.LittleEndian.Uint64(line[i:]) ^ k0)
		m := q & zeroBytes(binary.LittleEndian.Uint64(line[i+1:])^k1) & zeroBytes(binary.LittleEndian.Uint64(line[i+n-1:])^kn)
		for ; m != 0; m &= m - 1 {
			if p := i + bits.TrailingZeros64(m)/8; string(line[p:p+n]) == string(key) {
				return p
			}
		}
		clean++
		if q != 0 {
			clean = 0
		}
		if clean == 4 {
			j := bytes.IndexByte(line[i+8:], key[0])
			if j < 0 {
				return -1
			}
			i, clean = i+j, 0 // the loop's step lands on the quote
		}
	}
	if j := bytes.Index(line[i:], key); j >= 0 {
		return i + j
	}
	return -1
}

// indexEither is where a or b (keys of at least two bytes that open with a quote and differ in their
// second byte) first occurs in line, and whether it is a; -1 when neither does. The same word-at-a-time
// search as indexKey's, for two keys at once.
func indexEither(line, a, b []byte) (int, bool) {
	na, nb := len(a), len(b)
	k0 := ones * uint64(a[0])
	a1, an, b1, bn := ones*uint64(a[1]), ones*uint64(a[na-1]), ones*uint64(b[1]), ones*uint64(b[nb-1])
	i, clean := 0, 0
	for ; i+max(na, nb)-1+8 <= len(line); i += 8 {
		q := zeroBytes(binary.LittleEndian.Uint64(line[i:]) ^ k0)
		w1 := binary.LittleEndian.Uint64(line[i+1:])
		ma := q & zeroBytes(w1^a1) & zeroBytes(binary.LittleEndian.Uint64(line[i+na-1:])^an)
		mb := q & zeroBytes(w1^b1) & zeroBytes(binary.LittleEndian.Uint64(line[i+nb-1:])^bn)
		for m := ma | mb; m != 0; m &= m - 1 {
			p := i + bits.TrailingZeros64(m)/8
			if string(line[p:p+min(na, len(line)-p)]) == string(a) {
				return p, true
			}
			if string(line[p:p+min(nb, len(line)-p)]) == string(b) {
				return p, false
			}
		}
		clean++
		if q != 0 {
			clean = 0
		}
		if clean == 4 {
			j := bytes.IndexByte(line[i+8:], a[0])
			if j < 0 {
				return -1, false
			}
			i, clean = i+j, 0 // the loop's step lands on the quote
		}
	}
	ia, ib := bytes.Index(line[i:], a), bytes.Index(line[i:], b)
	switch {
	case ia >= 0 && (ib < 0 || ia < ib):
		return i + ia, true
	case ib >= 0:
		return i + ib, false
	}
	return -1, false
}

// shortLine is quick's answer for a line of at most costStateLine bytes, in one pass over its quotes
// instead of one search per key: whether it may be skipped and, when it has a time key, its time; ok
// false when it is to be decoded (it may be a call or a cost-state, or its time cannot be told: the key given
// twice, or its value not a plain string). It answers as mayBeCall, mayBeCostState and stringField do
// (FuzzShortLine).
func shortLine(t []byte) (ts string, stamped, ok bool) {
	content, assistant, stamp, stamps := -1, -1, -1, 0
	// at looks at the quote at p; true when the line is told to be a call, which ends the search (an
	// assistant line is ≤ costStateLine too, and its role comes early).
	at := func(p int) bool {
		if p+1 >= len(t) {
			return false
		}
		switch t[p+1] {
		case 'a':
			if assistant < 0 && bytes.HasPrefix(t[p:], quotedAssistant) {
				assistant = p
				// Before any "content" it is a call, unless "content" begins at its closing quote.
				return content < 0 && !bytes.HasPrefix(t[p+len(quotedAssistant)-1:], contentKey)
			}
		case 'c':
			if content < 0 && bytes.HasPrefix(t[p:], contentKey) {
				content = p
			} else if bytes.HasPrefix(t[p:], quotedCostState) {
				stamps = -1 << 30 // a cost-state: decode it
			}
		case 't':
			if bytes.HasPrefix(t[p:], timestampKey) {
				if stamps++; stamp < 0 {
					stamp = p
				}
			}
		}
		return false
	}
	// Only a quote followed by a, c or t can open one of the keys at looks for: the word after each
	// word's quotes tells them at once, so the envelope's other quotes cost no call each.
	const quotes, a, c, tee = ones * '"', ones * 'a', ones * 'c', ones * 't'
	i := 0
	for ; i+9 <= len(t); i += 8 {
		q := zeroBytes(binary.LittleEndian.Uint64(t[i:]) ^ quotes)
		if q == 0 {
			continue
		}
		next := binary.LittleEndian.Uint64(t[i+1:])
		for m := q & (zeroBytes(next^a) | zeroBytes(next^c) | zeroBytes(next^tee)); m != 0; m &= m - 1 {
			if at(i + bits.TrailingZeros64(m)/8) {
				return "", false, false
			}
		}
	}
	for ; i < len(t); i++ {
		if t[i] == '"' && at(i) {
			return "", false, false
		}
	}
	switch {
	case stamps < 0, assistant >= 0 && (content < 0 || assistant+len(quotedAssistant) <= content):
		return "", false, false
	case stamps == 0:
		return "", false, true
	case stamps > 1:
		return "", true, false
	}
	ts, ok = fieldValue(t[stamp+len(timestampKey):])
	return ts, true, ok
}

// zeroBytes flags (with its high bit) each byte of x that is zero, and no other.
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}

// ones is 1 in each byte of a word (SWAR).
const ones = 0x0101010101010101
