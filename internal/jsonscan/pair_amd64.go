package jsonscan

// nextPairAVX2 is NextPair from i, 32 places a turn, while a whole turn's 33 bytes are in d: the first
// pair's index and true, or where it stopped (fewer than 33 bytes left) and false (pair_amd64.s). The
// bytes a, b0, b1, b2 come packed, a in the lowest.
//
//go:noescape
func nextPairAVX2(d []byte, i int, bytes uint32) (p int, found bool)

// nextPairVector runs nextPairAVX2 where the CPU has AVX2 and a turn fits.
func nextPairVector(d []byte, i int, a, b0, b1, b2 byte) (int, bool) {
	if !hasAVX2 || i < 0 || i+33 > len(d) {
		return i, false
	}
	return nextPairAVX2(d, i, uint32(a)|uint32(b0)<<8|uint32(b1)<<16|uint32(b2)<<24)
}
