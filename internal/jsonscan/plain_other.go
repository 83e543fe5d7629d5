//go:build !amd64

package jsonscan

// plainEnd is the index of the first byte at or after i that is not plain (len(d) when there is none).
func plainEnd(d []byte, i int) int { return plainEndWords(d, i) }
