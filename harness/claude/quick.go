package claude

import (
	"bytes"
	"unsafe"

	"github.com/saverd/saverd/internal/jsonscan"
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

// indexKey is bytes.Index(line, key) for a key of at least two bytes that opens with a quote. The places
// where its first two bytes stand come from jsonscan.NextPair, 32 a turn in AVX2, and the rest of the key
// is compared at each: bytes.Index gives its byte search up after the envelope's many quotes and then
// compares at every byte.
func indexKey(line, key []byte) int {
	n := len(key)
	for p := 0; ; p++ {
		if p = jsonscan.NextPair(line, p, key[0], key[1], key[1], key[1]); p < 0 {
			return -1
		}
		if len(line)-p >= n && string(line[p:p+n]) == string(key) {
			return p
		}
	}
}

// indexEither is where a or b (keys of at least two bytes that open with the same quote) first occurs in
// line, and whether it is a; -1 when neither does. The same search as indexKey's, for two keys at once.
func indexEither(line, a, b []byte) (int, bool) {
	for p := 0; ; p++ {
		if p = jsonscan.NextPair(line, p, a[0], a[1], b[1], b[1]); p < 0 {
			return -1, false
		}
		if bytes.HasPrefix(line[p:], a) {
			return p, true
		}
		if bytes.HasPrefix(line[p:], b) {
			return p, false
		}
	}
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
	// Only a quote followed by a, c or t can open one of the keys at looks for: jsonscan.NextPair finds
	// them, so the envelope's other quotes cost no call each.
	for p := 0; ; p++ {
		if p = jsonscan.NextPair(t, p, '"', 'a', 'c', 't'); p < 0 {
			break
		}
		if at(p) {
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
