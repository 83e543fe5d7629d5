// Package jsonscan reads a JSON text in one pass, in place: an object's members by their names as
// written, values decoded as a UseNumber decoder decodes them (maps, []any, strings, json.Number,
// bools, nil), and a long string measured — its length in UTF-16 units and its start unescaped into
// the caller's buffer — without being copied. It is the fast path of a decoder that keeps a full one behind
// it: whatever it is not sure of (invalid JSON, invalid UTF-8, a lone surrogate escape, an escaped
// member name, nesting past jsondepth.Max) it refuses with ok false, and the caller decodes the same
// text with the full decoder, which decides and words the error. Pure: no I/O, no clock, no goroutine.
package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/jsondepth"
)

// Scanner reads one JSON text from its start.
type Scanner struct {
	data  []byte
	pos   int
	depth int
	// open: an object was just entered and its first member is still to come (no comma before it).
	open bool
	// names: the strings handed out as they are (see Interned).
	names *Interned
}

// New is a scanner at the start of data; data is read in place and must not change while it is read.
func New(data []byte) Scanner { return Scanner{data: data} }

// NewAt is a scanner over a value that stands depth levels down in a larger text (a frame's params
// stand 1 down): it refuses the nesting a scan of the whole text would refuse there.
func NewAt(data []byte, depth int) Scanner { return Scanner{data: data, depth: depth} }

// plain marks the bytes a string holds as they are: printable ASCII but the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// simpleEscape marks the bytes that make a one-character escape after a backslash (\u, the other
// escape, is read by escape).
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// Eight bytes at a time (SWAR): a word flags every byte that is not plain — a control character, a
// quote, a backslash, or not ASCII. It may also flag a plain byte above a flagged one (a borrow), never
// miss one.
const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// notPlain flags, in the high bit of each of its bytes, the bytes of the word at d[i] that are not
// plain. The lowest byte it flags is always one that is not plain (a borrow only flags bytes above one),
// so that byte is found from the mask without reading the word again.
func notPlain(d []byte, i int) uint64 {
	x := binary.LittleEndian.Uint64(d[i:])
	q, b := x^(ones*'"'), x^(ones*'\\')
	return (x | (x - ones*0x20) | (q-ones)&^q | (b-ones)&^b) & high
}

// plainEndWords is plainEnd a word a turn, for any CPU.
func plainEndWords(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		if m := notPlain(d, i); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(d) && plain[d[i]] {
		i++
	}
	return i
}

func (s *Scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Peek is the first byte of the next value (0 at the end of the text).
func (s *Scanner) Peek() byte {
	s.skipSpace()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// End reports whether nothing but whitespace is left.
func (s *Scanner) End() bool {
	s.skipSpace()
	return s.pos == len(s.data)
}

// Enter reads the `{` that opens an object; false when the next value is not one or nests too deep.
func (s *Scanner) Enter() bool {
	if s.Peek() != '{' || s.depth >= jsondepth.Max {
		return false
	}
	s.pos++
	s.depth++
	s.open = true
	return true
}

// Key reads the next member name of the object last entered, and the colon after it. more is false at
// the object's `}` (which is read). A name is returned only when it holds no escape and is valid UTF-8;
// it points into the text.
func (s *Scanner) Key() (key []byte, more, ok bool) {
	c := s.Peek()
	first := s.open
	s.open = false
	if c == '}' {
		s.pos++
		s.depth--
		return nil, false, true
	}
	if !first {
		if c != ',' {
			return nil, false, false
		}
		s.pos++
		c = s.Peek()
	}
	if c != '"' {
		return nil, false, false
	}
	start := s.pos + 1
	i := plainEnd(s.data, start)
	if i < len(s.data) && s.data[i] >= utf8.RuneSelf {
		// A name beyond ASCII: to its quote, then checked whole.
		for i < len(s.data) && s.data[i] != '"' && s.data[i] != '\\' && s.data[i] >= 0x20 {
			i++
		}
		if !utf8.Valid(s.data[start:i]) {
			return nil, false, false
		}
	}
	if i == len(s.data) || s.data[i] != '"' {
		return nil, false, false // an escape, a control character or no end: the full decoder's
	}
	s.pos = i + 1
	if s.Peek() != ':' {
		return nil, false, false
	}
	s.pos++
	return s.data[start:i], true, true
}

// String reads a string value, unescaped.
func (s *Scanner) String() (string, bool) {
	if s.Peek() != '"' {
		return "", false
	}
	start := s.pos + 1
	i := start
	ascii := true
	for i < len(s.data) {
		i = plainEnd(s.data, i)
		if i == len(s.data) {
			break
		}
		b := s.data[i]
		switch {
		case b == '"':
			if !ascii && !utf8.Valid(s.data[start:i]) {
				return "", false
			}
			s.pos = i + 1
			return string(s.data[start:i]), true
		case b == '\\':
			return s.escapedString(start, i)
		case b < 0x20:
			return "", false
		}
		ascii = false
		i++
	}
	return "", false
}

// escapedString finishes a string whose first escape is at i.
func (s *Scanner) escapedString(start, i int) (string, bool) {
	if !utf8.Valid(s.data[start:i]) {
		return "", false
	}
	out := make([]byte, 0, i-start+16)
	out = append(out, s.data[start:i]...)
	for i < len(s.data) {
		b := s.data[i]
		switch {
		case plain[b]:
			out = append(out, b)
			i++
		case b == '"':
			s.pos = i + 1
			return string(out), true
		case b == '\\':
			r, next, ok := s.escape(i)
			if !ok {
				return "", false
			}
			out = utf8.AppendRune(out, r)
			i = next
		case b < 0x20:
			return "", false
		default:
			r, size := utf8.DecodeRune(s.data[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			out = append(out, s.data[i:i+size]...)
			i += size
		}
	}
	return "", false
}

// escape reads the escape at s.data[i] (a backslash): the rune it stands for and the index after it.
// A \u escape of half a surrogate pair is refused unless the other half follows.
func (s *Scanner) escape(i int) (r rune, next int, ok bool) {
	if i+1 >= len(s.data) {
		return 0, 0, false
	}
	switch s.data[i+1] {
	case '"':
		return '"', i + 2, true
	case '\\':
		return '\\', i + 2, true
	case '/':
		return '/', i + 2, true
	case 'b':
		return '\b', i + 2, true
	case 'f':
		return '\f', i + 2, true
	case 'n':
		return '\n', i + 2, true
	case 'r':
		return '\r', i + 2, true
	case 't':
		return '\t', i + 2, true
	case 'u':
	default:
		return 0, 0, false
	}
	hi, ok := s.hex4(i + 2)
	if !ok {
		return 0, 0, false
	}
	switch {
	case hi < 0xD800 || hi > 0xDFFF:
		return hi, i + 6, true
	case hi >= 0xDC00:
		return 0, 0, false
	}
	if i+7 >= len(s.data) || s.data[i+6] != '\\' || s.data[i+7] != 'u' {
		return 0, 0, false
	}
	lo, ok := s.hex4(i + 8)
	if !ok || lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0, false
	}
	return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), i + 12, true
}

func (s *Scanner) hex4(i int) (rune, bool) {
	if i+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// Measure reads a string value without keeping it: its length in UTF-16 units, and as much of its
// text, unescaped, as fits in prefix, whole characters only: n bytes, all of it when whole is true.
func (s *Scanner) Measure(prefix []byte) (units, n int, whole, ok bool) {
	if s.Peek() != '"' {
		return 0, 0, false, false
	}
	d := s.data
	i := s.pos + 1
	whole = true
	for i < len(d) {
		if j := plainEnd(d, i); j > i {
			// A run of plain ASCII, one unit a byte.
			units += j - i
			if whole {
				c := copy(prefix[n:], d[i:j])
				n += c
				whole = c == j-i
			}
			i = j
			if i == len(d) {
				break
			}
		}
		var r rune
		switch b := d[i]; {
		case b == '"':
			s.pos = i + 1
			return units, n, whole, true
		case b == '\\':
			var ok bool
			if r, i, ok = s.escape(i); !ok {
				return 0, 0, false, false
			}
		case b < 0x20:
			return 0, 0, false, false
		default:
			var size int
			r, size = utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, 0, false, false
			}
			i += size
		}
		units++
		if r >= 0x10000 {
			units++
		}
		if whole {
			if whole = len(prefix)-n >= utf8.RuneLen(r); whole {
				n += utf8.EncodeRune(prefix[n:], r)
			}
		}
	}
	return 0, 0, false, false
}

// Number reads a number value as written, checked against JSON's grammar.
func (s *Scanner) Number() ([]byte, bool) {
	s.skipSpace()
	d, start := s.data, s.pos
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	s.pos = i
	return d[start:i], true
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// Literal reads true, false or null.
func (s *Scanner) Literal(word string) bool {
	s.skipSpace()
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// Value reads any value: objects as map[string]any (a name given twice is refused), arrays as []any,
// numbers as json.Number as written.
func (s *Scanner) Value() (any, bool) {
	switch c := s.Peek(); {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		if v, ok := s.Interned(); ok {
			return v, true
		}
		return s.String()
	case c == 't':
		return true, s.Literal("true")
	case c == 'f':
		return false, s.Literal("false")
	case c == 'n':
		return nil, s.Literal("null")
	default:
		n, ok := s.Number()
		return json.Number(n), ok
	}
}

func (s *Scanner) object() (any, bool) {
	if !s.Enter() {
		return nil, false
	}
	m := map[string]any{}
	for {
		key, more, ok := s.Key()
		if !ok {
			return nil, false
		}
		if !more {
			return m, true
		}
		v, ok := s.Value()
		if !ok {
			return nil, false
		}
		n := len(m)
		if m[s.Name(key)] = v; len(m) == n {
			return nil, false // the name was there already
		}
	}
}

func (s *Scanner) array() (any, bool) {
	out := []any{}
	ok := s.elements(func() bool {
		v, ok := s.Value()
		out = append(out, v)
		return ok
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// elements reads an array: its brackets and commas here, each element by read.
func (s *Scanner) elements(read func() bool) bool {
	if s.depth >= jsondepth.Max {
		return false
	}
	s.pos++
	s.depth++
	if s.Peek() == ']' {
		s.pos++
		s.depth--
		return true
	}
	for {
		if !read() {
			return false
		}
		switch s.Peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// Skip reads any value and drops it.
func (s *Scanner) Skip() bool {
	switch c := s.Peek(); {
	case c == '{':
		if !s.Enter() {
			return false
		}
		for {
			_, more, ok := s.Key()
			if !ok {
				return false
			}
			if !more {
				return true
			}
			if !s.Skip() {
				return false
			}
		}
	case c == '[':
		return s.skipArray()
	case c == '"':
		return s.skipString()
	case c == 't':
		return s.Literal("true")
	case c == 'f':
		return s.Literal("false")
	case c == 'n':
		return s.Literal("null")
	default:
		_, ok := s.Number()
		return ok
	}
}

// skipString reads a string and drops it, refusing what Measure refuses. A tool's output, the bulk of
// what is skipped, is lines each ending in \n: a one-character escape is stepped over in the loop, not
// decoded (BenchmarkSkipToolOutput; docs/performance.md has its figures).
func (s *Scanner) skipString() bool {
	d := s.data
	for i := s.pos + 1; i < len(d); {
		if i = plainEnd(d, i); i == len(d) {
			break
		}
		switch b := d[i]; {
		case b == '"':
			s.pos = i + 1
			return true
		case b == '\\':
			if i+1 < len(d) && simpleEscape[d[i+1]] {
				i += 2
				continue
			}
			var ok bool
			if _, i, ok = s.escape(i); !ok {
				return false
			}
		case b < 0x20:
			return false
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		}
	}
	return false
}

// skipArray reads an array and drops it, building none of its values (a skipped todo list or file
// list would otherwise be decoded whole only to be thrown away).
func (s *Scanner) skipArray() bool { return s.elements(s.Skip) }

// Offset is where the next value starts in the text.
func (s *Scanner) Offset() int {
	s.skipSpace()
	return s.pos
}

// Since is the text from offset start to where the scanner is.
func (s *Scanner) Since(start int) []byte { return s.data[start:s.pos] }

// Raw reads any value and returns its text as written, pointing into the scanned text.
func (s *Scanner) Raw() ([]byte, bool) {
	s.skipSpace()
	start := s.pos
	if !s.Skip() {
		return nil, false
	}
	return s.data[start:s.pos], true
}
