package agentlog

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/saverd/saverd/internal/jsondepth"
	"github.com/saverd/saverd/internal/jsonscan"
)

// cursor walks one JSON text in place for fastLine: objects member by member, an array element by
// element, values skipped without being built, strings handed out in place (jsonscan steps into no
// array and copies every string it returns). It refuses rather than guesses: every method returns false
// on anything outside JSON's grammar, on an escaped or non-ASCII member name, on invalid UTF-8 and past
// jsondepth.Max, and the caller leaves the text to the decoder. Being stricter than the decoder is safe;
// accepting what it refuses is not, which FuzzFastLine checks.
type cursor struct {
	d     []byte
	i     int
	depth int
}

func (c *cursor) space() {
	for c.i < len(c.d) {
		switch c.d[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// peek is the next value's first byte (0 at the end).
func (c *cursor) peek() byte {
	c.space()
	if c.i < len(c.d) {
		return c.d[c.i]
	}
	return 0
}

// enter reads the `{` that opens an object.
func (c *cursor) enter() bool {
	if c.peek() != '{' || c.depth >= jsondepth.Max {
		return false
	}
	c.i++
	c.depth++
	return true
}

// key reads the next member name of the object entered and the colon after it; more is false at its
// `}` (read). first: no comma before this member.
func (c *cursor) key(first bool) (key []byte, more, ok bool) {
	b := c.peek()
	if b == '}' {
		c.i++
		c.depth--
		return nil, false, true
	}
	if !first {
		if b != ',' {
			return nil, false, false
		}
		c.i++
		b = c.peek()
	}
	if b != '"' {
		return nil, false, false
	}
	start := c.i + 1
	end := stopAt(c.d, start)
	if end == len(c.d) || c.d[end] != '"' {
		return nil, false, false
	}
	c.i = end + 1
	if c.peek() != ':' {
		return nil, false, false
	}
	c.i++
	return c.d[start:end], true, true
}

// stopAt is the index of the first byte at or after i that a string does not hold as it is: a quote, a
// backslash, a control character or a byte beyond ASCII (len(d) when there is none). Eight bytes at a
// time: the lowest byte a word flags is always such a byte (a borrow only flags bytes above one).
func stopAt(d []byte, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(d); i += 8 {
		x := binary.LittleEndian.Uint64(d[i:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		if m := (x | (x - ones*0x20) | (q-ones)&^q | (b-ones)&^b) & high; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(d); i++ {
		if b := d[i]; b < 0x20 || b >= utf8.RuneSelf || b == '"' || b == '\\' {
			return i
		}
	}
	return i
}

// skipString reads a string value; escaped reports whether it holds an escape.
func (c *cursor) skipString() (body []byte, escaped, ok bool) {
	if c.peek() != '"' {
		return nil, false, false
	}
	start := c.i + 1
	i := start
	for {
		i = stopAt(c.d, i)
		if i == len(c.d) {
			return nil, false, false
		}
		switch b := c.d[i]; {
		case b == '"':
			c.i = i + 1
			return c.d[start:i], escaped, true
		case b == '\\':
			escaped = true
			if i+1 == len(c.d) {
				return nil, false, false
			}
			switch c.d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(c.d) || !isHex4(c.d[i+2:i+6]) {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		case b < 0x20:
			return nil, false, false
		default:
			r, size := utf8.DecodeRune(c.d[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, false, false
			}
			i += size
		}
	}
}

func isHex4(h []byte) bool {
	for _, b := range h {
		if !('0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F') {
			return false
		}
	}
	return true
}

// str reads a string value. Without escapes it is the text itself, in place, as the decoder's zero-copy
// strings are; with them, unescaped into a copy (jsonscan refuses the lone surrogates the decoder would
// replace).
func (c *cursor) str() (string, bool) {
	start := c.i
	body, escaped, ok := c.skipString()
	if !ok {
		return "", false
	}
	if escaped {
		sc := jsonscan.New(c.d[start:c.i])
		return sc.String()
	}
	return unsafe.String(unsafe.SliceData(body), len(body)), true
}

// number reads a number value as written, checked against JSON's grammar.
func (c *cursor) number() ([]byte, bool) {
	c.space()
	d, start := c.d, c.i
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digitsEnd(d, i)
	default:
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		j := digitsEnd(d, i+1)
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
		j := digitsEnd(d, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	c.i = i
	return d[start:i], true
}

func digitsEnd(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// integer reads a number written as an integer that fits an int64, digit by digit (strconv would want
// the number found first); a fraction, an exponent or an overflow is the decoder's to judge.
func (c *cursor) integer(dst *int64) bool {
	c.space()
	d, i := c.d, c.i
	neg := i < len(d) && d[i] == '-'
	if neg {
		i++
	}
	start := i
	var v uint64
	for ; i < len(d) && d[i] >= '0' && d[i] <= '9'; i++ {
		if v > (1<<63)/10 {
			return false
		}
		v = v*10 + uint64(d[i]-'0')
	}
	switch n := i - start; {
	case n == 0, n > 1 && d[start] == '0', v > 1<<63, !neg && v == 1<<63:
		return false
	}
	if i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E') {
		return false
	}
	c.i = i
	*dst = int64(v)
	if neg {
		*dst = -int64(v)
	}
	return true
}

func (c *cursor) literal(word string) bool {
	if len(c.d)-c.i < len(word) || string(c.d[c.i:c.i+len(word)]) != word {
		return false
	}
	c.i += len(word)
	return true
}

// skip reads any value and drops it.
func (c *cursor) skip() bool {
	switch c.peek() {
	case '{':
		if !c.enter() {
			return false
		}
		for first := true; ; first = false {
			_, more, ok := c.key(first)
			if !ok {
				return false
			}
			if !more {
				return true
			}
			if !c.skip() {
				return false
			}
		}
	case '[':
		if !c.open() {
			return false
		}
		for more := c.peek() != ']'; more; {
			if !c.skip() {
				return false
			}
			var ok bool
			if more, ok = c.next(); !ok {
				return false
			}
		}
		return c.close()
	case '"':
		_, _, ok := c.skipString()
		return ok
	case 't':
		return c.literal("true")
	case 'f':
		return c.literal("false")
	case 'n':
		return c.literal("null")
	default:
		_, ok := c.number()
		return ok
	}
}

// open reads the `[` that opens an array.
func (c *cursor) open() bool {
	if c.peek() != '[' || c.depth >= jsondepth.Max {
		return false
	}
	c.i++
	c.depth++
	return true
}

// next reads what follows an array's element: a comma (more) or the array's end, left for close.
func (c *cursor) next() (more, ok bool) {
	switch c.peek() {
	case ',':
		c.i++
		return true, true
	case ']':
		return false, true
	}
	return false, false
}

// close reads the `]` that ends an array.
func (c *cursor) close() bool {
	if c.peek() != ']' {
		return false
	}
	c.i++
	c.depth--
	return true
}
