// Package jsondepth bounds how deeply a JSON text nests before any decoder reads it. A recursive decoder
// given two million nested arrays overflows its goroutine's stack, which kills the process rather than
// failing the one frame; a scan that only counts brackets cannot. It is pure: no I/O, no state.
package jsondepth

import (
	"bytes"
	"unsafe"
)

// Max is the deepest nesting saverd accepts in a frame, a stored file or a JSON text carried in one:
// a frame's envelope, its params and a tool's input together stay far below it.
const Max = 128

// Check reports whether text nests objects and arrays more than max levels deep and, when it does, the
// byte offset of the bracket that went one level too deep. Brackets inside strings do not count. Check
// does not validate the text: a decoder still does that, and is only spared the texts it cannot survive.
func Check(text []byte, max int) (offset int, tooDeep bool) {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			end := stringEnd(text, i+1)
			if end < 0 {
				return 0, false // unterminated: the decoder says so
			}
			i = end
		case '[', '{':
			depth++
			if depth > max {
				return i, true
			}
		case ']', '}':
			depth--
		}
	}
	return 0, false
}

// CheckString is Check for a string; the string is read in place, not copied.
func CheckString(text string, max int) (offset int, tooDeep bool) {
	return Check(unsafe.Slice(unsafe.StringData(text), len(text)), max)
}

// stringEnd is the index of the quote closing the string whose text starts at from, or -1. A quote is
// escaped when an odd number of backslashes precede it. Most of a tool.call's bytes are string text,
// so the search is bytes.IndexByte's, not a byte-by-byte loop.
func stringEnd(text []byte, from int) int {
	for {
		j := bytes.IndexByte(text[from:], '"')
		if j < 0 {
			return -1
		}
		q := from + j
		if !escaped(text, q) {
			return q
		}
		from = q + 1
	}
}

// escaped reports whether the quote at q is preceded by an odd run of backslashes.
func escaped(text []byte, q int) bool {
	n := 0
	for k := q - 1; k >= 0 && text[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}
