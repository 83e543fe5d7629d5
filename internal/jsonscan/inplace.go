package jsonscan

import "unsafe"

// The readers of a caller that keeps what it reads no longer than the text: a string handed out in
// place, an integer read digit by digit, an array stepped through element by element.

// InPlace reads a string value. Printable ASCII without escapes (nearly every name, id and time a log
// line holds) is the text itself, in place: valid only as long as the text is, and never to be changed.
// Anything else is unescaped into a copy, as String does.
func (s *Scanner) InPlace() (string, bool) {
	if s.Peek() != '"' {
		return "", false
	}
	start := s.pos + 1
	if end := plainEnd(s.data, start); end < len(s.data) && s.data[end] == '"' {
		s.pos = end + 1
		body := s.data[start:end]
		return unsafe.String(unsafe.SliceData(body), len(body)), true
	}
	return s.String()
}

// Integer reads a number written as an integer that int64 holds into *dst; a fraction, an exponent,
// a leading zero or an overflow is refused (ok false), for a caller with a full decoder behind it.
func (s *Scanner) Integer(dst *int64) bool {
	s.skipSpace()
	d, i := s.data, s.pos
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
	s.pos = i
	*dst = int64(v)
	if neg {
		*dst = -int64(v)
	}
	return true
}

// Array reads an array, calling read at the start of each element (read must read exactly that
// element); false when the next value is not an array, nests too deep, or read or the array's own
// punctuation fails.
func (s *Scanner) Array(read func() bool) bool {
	if s.Peek() != '[' {
		return false
	}
	return s.elements(read)
}

// Object reads an object, calling member with each member's name (as Key gives it) for it to read that
// member's value exactly; false when the next value is not an object, nests too deep, a name is not one
// Key returns, or member or the object's own punctuation fails.
func (s *Scanner) Object(member func(key []byte) bool) bool {
	if !s.Enter() {
		return false
	}
	for {
		key, more, ok := s.Key()
		if !ok {
			return false
		}
		if !more {
			return true
		}
		if !member(key) {
			return false
		}
	}
}

// StringInto reads a string into *into as encoding/json decodes one into a string field: a null leaves
// *into as it was.
func (s *Scanner) StringInto(into *string) bool {
	if s.Peek() == 'n' {
		return s.Literal("null")
	}
	v, ok := s.String()
	*into = v
	return ok
}

// BoolInto reads a boolean into *into as encoding/json decodes one into a bool field: a null leaves
// *into as it was.
func (s *Scanner) BoolInto(into *bool) bool {
	switch s.Peek() {
	case 'n':
		return s.Literal("null")
	case 't':
		*into = true
		return s.Literal("true")
	}
	*into = false
	return s.Literal("false")
}

// Null reads a null if one is next, and reports whether it did: where a decoder leaves a pointer, a
// slice or a struct as it was for a null, a one-pass reader steps over it.
func (s *Scanner) Null() bool { return s.Peek() == 'n' && s.Literal("null") }
