package state

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// capBySort is CapFolded as a sort of every record finds what to merge, each merged in sorted order:
// what the selection must agree with, record for record.
func capBySort(folded map[string]Folded) {
	if len(folded) <= FoldedCap {
		return
	}
	var small []string
	for k, f := range folded {
		if f.Key != OtherKeys {
			small = append(small, k)
		}
	}
	sort.Slice(small, func(i, j int) bool {
		a, b := folded[small[i]], folded[small[j]]
		if a.Chars != b.Chars {
			return a.Chars < b.Chars
		}
		if a.Count != b.Count {
			return a.Count < b.Count
		}
		return small[i] < small[j]
	})
	for _, k := range small[:max(0, min(len(small), len(folded)-FoldedCap*3/4))] {
		f := folded[k]
		delete(folded, k)
		o, ok := folded[otherKey(f)]
		if !ok {
			o = Folded{Tool: f.Tool, Key: OtherKeys, Cls: f.Cls, Agent: f.Agent, FirstTurn: f.FirstTurn, LastTurn: f.LastTurn}
		}
		addFolded(&o, f)
		folded[otherKey(f)] = o
	}
}

// TestCapFoldedAgreesWithASort: the records the selection merges, and every sum after, are what sorting
// them all chose, on ties of every kind, orders a pivot can meet badly, and OtherKeys records already
// held; and the tracking undoes the trim back to the map before it.
func TestCapFoldedAgreesWithASort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		n     int
		chars func(i int) int64
		count func(i int) int
	}{
		{"all tied but the key", FoldedCap + 1, func(int) int64 { return 2046 }, func(int) int { return 1 }},
		{"ascending", FoldedCap + 7, func(i int) int64 { return int64(i) }, func(int) int { return 1 }},
		{"descending", FoldedCap + 7, func(i int) int64 { return int64(-i) }, func(int) int { return 1 }},
		{"few values, count breaks ties", 2 * FoldedCap, func(i int) int64 { return int64(i % 3) }, func(i int) int { return i % 5 }},
		{"random", FoldedCap + 500, func(int) int64 { return rng.Int64N(100) }, func(int) int { return rng.IntN(4) }},
		{"at the cap", FoldedCap, func(i int) int64 { return int64(i) }, func(int) int { return 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]Folded{}
			for i := range tt.n {
				tool := []string{"Bash", "Read"}[i%2]
				k := fmt.Sprintf("%s\x00key %05d", tool, i)
				m[k] = Folded{Tool: tool, Key: k, Cls: []CommandClass{ClassTest, ClassRead, ClassOther}[i%3], Agent: MainAgent,
					Count: tt.count(i), Chars: tt.chars(i), Ms: int64(i), FirstTurn: i, LastTurn: i + 1,
					Flags: FoldFlags{Ask: i % 2, Err: i % 3, Recommended: i % 5}}
			}
			o := Folded{Tool: "Bash", Key: OtherKeys, Cls: ClassTest, Agent: MainAgent, Count: 3, Chars: 1, FirstTurn: 5, LastTurn: 9}
			m[otherKey(o)] = o
			want, before := maps.Clone(m), maps.Clone(m)
			capBySort(want)
			tr := &tracking{}
			capFolded(m, tr)
			if !reflect.DeepEqual(m, want) {
				t.Fatalf("%d records after the trim, a sort's trim %d; they differ", len(m), len(want))
			}
			s := &State{Folded: m, track: tr}
			tr.base = &State{}
			if got := s.foldedAt(tr.base); !reflect.DeepEqual(got, before) {
				t.Errorf("the tracking undoes the trim to %d records, want the %d before", len(got), len(before))
			}
		})
	}
}

// BenchmarkCapFolded is one trim of a session's folded records just past the cap, the records tied
// but for their keys as distinct commands of one output size are (the soak's).
//
//	go test -run '^$' -bench CapFolded -benchmem ./state
func BenchmarkCapFolded(b *testing.B) {
	keys := make([]string, FoldedCap+1)
	for i := range keys {
		keys[i] = fmt.Sprintf("Bash\x00grep -rn needle-0-%d src", i)
	}
	for range b.N {
		b.StopTimer()
		m := make(map[string]Folded, len(keys))
		for i, k := range keys {
			m[k] = Folded{Tool: "Bash", Key: k, Cls: ClassSearch, Count: 1, Chars: 2046, Ms: 40, FirstTurn: i, LastTurn: i}
		}
		b.StartTimer()
		capFolded(m, &tracking{})
	}
}
