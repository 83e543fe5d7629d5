package state

import (
	"math/bits"
	"slices"
)

// OtherKeys is the key of a folded record that stands for many small ones: the records past FoldedCap,
// merged per tool, class and loop.
const OtherKeys = "(other keys)"

// CapFolded keeps folded at most FoldedCap records: past it, the smallest by characters (then count)
// are merged into one OtherKeys record per tool, class and loop. Every sum the views and the judge
// draw from folded records (per sink, per class, per loop, the waits) is unchanged; only the per-key
// detail of the smallest is given up. A session of 200,000 distinct commands held 700 MB of records
// without it. It trims to three quarters of the cap, so the sort is paid once per FoldedCap/4 new keys.
// It changes folded in place.
func CapFolded(folded map[string]Folded) { capFolded(folded, nil) }

// capFolded is CapFolded, telling t (when not nil) what each delete and write replaces. The records to
// merge are found by selection, not a sort: every session that runs distinct commands pays for a trim
// once per FoldedCap/4 keys, and a sort of FoldedCap records by value (~1 ms) was the slowest call of a
// long session. Which records merge is the same either way (the order is total: a key is held once), and
// merging is order-free (sums, a min and a max).
func capFolded(folded map[string]Folded, t *tracking) {
	if len(folded) <= FoldedCap {
		return
	}
	small := make([]capEntry, 0, len(folded))
	for k, f := range folded {
		if f.Key != OtherKeys {
			small = append(small, capEntry{chars: f.Chars, count: f.Count, k: k})
		}
	}
	n := max(0, min(len(small), len(folded)-FoldedCap*3/4))
	selectSmallest(small, n)
	if t != nil {
		t.undo = slices.Grow(t.undo, n+4) // grown once, not as it goes
	}
	// The merged records are summed here first and each written once: a trim usually feeds one or two.
	var others []Folded
	for _, e := range small[:n] {
		f := folded[e.k]
		t.wroteFolded(e.k, f, true)
		delete(folded, e.k)
		others = sumOther(others, f)
	}
	for _, sum := range others {
		k := otherKey(sum)
		o, ok := folded[k]
		t.wroteFolded(k, o, ok)
		if !ok {
			o = Folded{Tool: sum.Tool, Key: OtherKeys, Cls: sum.Cls, Agent: sum.Agent, FirstTurn: sum.FirstTurn, LastTurn: sum.LastTurn}
		}
		addFolded(&o, sum)
		folded[k] = o
	}
}

// sumOther adds f into the sum in others of its tool, class and loop, or starts one.
func sumOther(others []Folded, f Folded) []Folded {
	for i := range others {
		if o := &others[i]; o.Tool == f.Tool && o.Cls == f.Cls && o.Agent == f.Agent {
			addFolded(o, f)
			return others
		}
	}
	return append(others, f)
}

// capEntry is what capFolded orders a record by: the smallest by characters, then count, then key.
type capEntry struct {
	chars int64
	count int
	k     string
}

func (a *capEntry) less(b *capEntry) bool {
	if a.chars != b.chars {
		return a.chars < b.chars
	}
	if a.count != b.count {
		return a.count < b.count
	}
	return a.k < b.k
}

// selectSmallest puts the n smallest of e first, in no particular order (quickselect, a middle pivot;
// past a depth budget, which only a crafted order reaches, the rest is sorted instead).
func selectSmallest(e []capEntry, n int) {
	lo, hi := 0, len(e) // the n-th smallest lies in e[lo:hi]
	for budget := 2 * bits.Len(uint(len(e))); hi-lo > 1 && n > lo && n < hi; budget-- {
		if budget == 0 {
			slices.SortFunc(e[lo:hi], func(a, b capEntry) int {
				if a.less(&b) {
					return -1
				}
				return 1 // keys differ, so no two entries are equal
			})
			return
		}
		p := partition(e[lo:hi]) + lo
		switch {
		case n <= p:
			hi = p
		default:
			lo = p + 1
		}
	}
}

// partition moves e's middle entry to where it sorts, the smaller before it and the larger after, and
// answers its place.
func partition(e []capEntry) int {
	last := len(e) - 1
	e[len(e)/2], e[last] = e[last], e[len(e)/2]
	p := 0
	for i := range last {
		if e[i].less(&e[last]) {
			e[i], e[p] = e[p], e[i]
			p++
		}
	}
	e[p], e[last] = e[last], e[p]
	return p
}

// otherKey is where the OtherKeys record of f's tool, class and loop is kept.
func otherKey(f Folded) string {
	return "\x00" + f.Tool + "\t" + string(f.Cls) + "\t" + f.Agent // no FoldKey starts with NUL
}

// addFolded adds f's counts into o, and widens o's turns to f's.
func addFolded(o *Folded, f Folded) {
	o.Count += f.Count
	o.Ms += f.Ms
	o.Chars += f.Chars
	o.FirstTurn = min(o.FirstTurn, f.FirstTurn)
	o.LastTurn = max(o.LastTurn, f.LastTurn)
	o.Flags.Ask += f.Flags.Ask
	o.Flags.Recommended += f.Flags.Recommended
	o.Flags.Err += f.Flags.Err
}
