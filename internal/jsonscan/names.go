package jsonscan

import "unicode/utf8"

// FoldsTo reports whether a decoder that matches member names regardless of case (encoding/json, and the
// fast decoders that follow it) would take key for one of names, or key is not plain ASCII and that
// cannot be told here (Unicode folding maps K, the Kelvin sign, to k). A one-pass reader that meets such a
// key leaves the text to that decoder, so the two never read a member differently.
func FoldsTo(key []byte, names []string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, m := range names {
		if len(m) == len(key) && asciiEqualFold(m, key) {
			return true
		}
	}
	return false
}

// asciiEqualFold: b is the ASCII name a, letters in any case, every other byte the same.
func asciiEqualFold(a string, b []byte) bool {
	for i := range len(a) {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y || (x < 'a' || x > 'z') && a[i] != b[i] {
			return false
		}
	}
	return true
}

// Once marks a member as read and reports whether it was the first time: a one-pass reader refuses a
// member given twice, which a full decoder would read as its last value.
func Once(seen *bool) bool {
	was := *seen
	*seen = true
	return !was
}
