package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// NextPair is the index of the first p at or after i where d[p] is a and d[p+1] is b0, b1 or b2, -1
// when there is none: the places where a key that opens with a and then one of b0, b1 and b2 may
// begin. A search for a few keys among long lines (harness/claude's quick pass) takes the candidates
// it gives and compares the rest of each key; past a candidate it searches again from p+1. Where the
// CPU has AVX2 (pair_amd64.s), 32 places are tested a turn; elsewhere, and in the last 32 bytes, 8 a word.
func NextPair(d []byte, i int, a, b0, b1, b2 byte) int {
	i, found := nextPairVector(d, i, a, b0, b1, b2)
	if found {
		return i
	}
	return nextPairWords(d, i, a, b0, b1, b2)
}

// nextPairWords is NextPair a word at a time: the word at p flags its bytes equal to a, the word at p+1
// its bytes equal to one of the three; both exact (zeroBytes flags no other byte), so the lowest place
// flagged in both is the first pair.
func nextPairWords(d []byte, i int, a, b0, b1, b2 byte) int {
	ka, k0, k1, k2 := ones*uint64(a), ones*uint64(b0), ones*uint64(b1), ones*uint64(b2)
	for ; i+9 <= len(d); i += 8 {
		q := zeroBytes(binary.LittleEndian.Uint64(d[i:]) ^ ka)
		if q == 0 {
			continue
		}
		next := binary.LittleEndian.Uint64(d[i+1:])
		if m := q & (zeroBytes(next^k0) | zeroBytes(next^k1) | zeroBytes(next^k2)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i+1 < len(d); i++ {
		if d[i] == a && (d[i+1] == b0 || d[i+1] == b1 || d[i+1] == b2) {
			return i
		}
	}
	return -1
}

// zeroBytes flags (with its high bit) each byte of x that is zero, and no other.
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}
