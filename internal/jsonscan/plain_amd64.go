package jsonscan

import (
	"math/bits"

	"golang.org/x/sys/cpu"
)

// hasAVX2: plainEnd steps over a long run 32 bytes a turn in plain_amd64.s.
var hasAVX2 = cpu.X86.HasAVX2

// plainEndAVX2 is plainEnd from i, for i+32 <= len(d), in vector instructions (plain_amd64.s).
//
//go:noescape
func plainEndAVX2(d []byte, i int) int

// plainEnd is the index of the first byte at or after i that is not plain (len(d) when there is none).
// A member's name or a short value ends in its first word, read here; a run longer than that goes to
// the vector loop when the CPU has one, and to plainEndWords otherwise.
func plainEnd(d []byte, i int) int {
	if i+8 <= len(d) {
		if m := notPlain(d, i); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
		if hasAVX2 && i+32 <= len(d) {
			return plainEndAVX2(d, i)
		}
	}
	return plainEndWords(d, i)
}
