//go:build !amd64

package jsonscan

// nextPairVector: no vector search on this CPU; the word search does it all.
func nextPairVector(d []byte, i int, a, b0, b1, b2 byte) (int, bool) { return i, false }
