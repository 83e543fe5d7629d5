package jsonscan

import (
	"strings"
	"testing"
)

// nextPairBytes is NextPair a place at a time: what the word and vector searches are held to.
func nextPairBytes(d []byte, i int, a, b0, b1, b2 byte) int {
	for ; i+1 < len(d); i++ {
		if d[i] == a && (d[i+1] == b0 || d[i+1] == b1 || d[i+1] == b2) {
			return i
		}
	}
	return -1
}

// nextPairs are the searches held to nextPairBytes: NextPair (the vector search where the CPU has one)
// and the word search every CPU runs.
var nextPairs = []struct {
	name string
	f    func([]byte, int, byte, byte, byte, byte) int
}{{"NextPair", NextPair}, {"nextPairWords", nextPairWords}}

// TestNextPair: the word and vector searches find the pair the place-by-place one does — a pair at
// every place of texts of every length up to two vectors and two words, from every start, with a lone
// first byte or a lone second byte before it and a first byte last, and none at all.
func TestNextPair(t *testing.T) {
	base := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 3)
	for n := 0; n <= 80; n++ {
		for at := -1; at < n; at++ {
			for _, decoy := range []string{"", `"x`, "ta", `"`} {
				d := []byte(strings.ReplaceAll(base[:n], "a", "_"))
				if at >= 0 {
					d[at] = '"'
					if at+1 < n {
						d[at+1] = "act"[at%3]
					}
				}
				if decoy != "" && at > len(decoy) {
					copy(d[at-len(decoy)-1:], decoy)
				}
				if decoy == `"` && n > 0 {
					d[n-1] = '"'
				}
				for from := 0; from <= n; from++ {
					want := nextPairBytes(d, from, '"', 'a', 'c', 't')
					for _, p := range nextPairs {
						if got := p.f(d, from, '"', 'a', 'c', 't'); got != want {
							t.Fatalf("%s(%q, %d): %d, want %d", p.name, d, from, got, want)
						}
					}
				}
			}
		}
	}
}

// FuzzNextPair holds the word and vector searches to the place-by-place one on any text, start and bytes.
func FuzzNextPair(f *testing.F) {
	f.Add([]byte(strings.Repeat("x", 70)+`"timestamp"`), 0, byte('"'), byte('a'), byte('c'), byte('t'))
	f.Add([]byte(`{"type":"assistant","content":[]}`+strings.Repeat(`"z`, 30)), 3, byte('"'), byte('t'), byte('t'), byte('t'))
	f.Fuzz(func(t *testing.T, d []byte, from int, a, b0, b1, b2 byte) {
		if from < 0 || from > len(d) {
			return
		}
		want := nextPairBytes(d, from, a, b0, b1, b2)
		for _, p := range nextPairs {
			if got := p.f(d, from, a, b0, b1, b2); got != want {
				t.Fatalf("%s(%q, %d, %q %q %q %q): %d, want %d", p.name, d, from, a, b0, b1, b2, got, want)
			}
		}
	})
}
