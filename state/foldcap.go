package state

import "sort"

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

// capFolded is CapFolded, telling t (when not nil) what each delete and write replaces.
func capFolded(folded map[string]Folded, t *tracking) {
	if len(folded) <= FoldedCap {
		return
	}
	type entry struct {
		k string
		f Folded
	}
	var small []entry
	for k, f := range folded {
		if f.Key != OtherKeys {
			small = append(small, entry{k, f})
		}
	}
	sort.Slice(small, func(i, j int) bool {
		a, b := &small[i].f, &small[j].f
		if a.Chars != b.Chars {
			return a.Chars < b.Chars
		}
		if a.Count != b.Count {
			return a.Count < b.Count
		}
		return small[i].k < small[j].k
	})
	for _, e := range small[:max(0, min(len(small), len(folded)-FoldedCap*3/4))] {
		t.wroteFolded(e.k, e.f, true)
		delete(folded, e.k)
		mergeOther(folded, e.f, t)
	}
}

// mergeOther adds f into the OtherKeys record of its tool, class and loop, telling t (when not nil)
// what the write replaces.
func mergeOther(folded map[string]Folded, f Folded, t *tracking) {
	k := "\x00" + f.Tool + "\t" + string(f.Cls) + "\t" + f.Agent // no FoldKey starts with NUL
	o, ok := folded[k]
	t.wroteFolded(k, o, ok)
	if !ok {
		o = Folded{Tool: f.Tool, Key: OtherKeys, Cls: f.Cls, Agent: f.Agent, FirstTurn: f.FirstTurn, LastTurn: f.LastTurn}
	}
	o.Count += f.Count
	o.Ms += f.Ms
	o.Chars += f.Chars
	o.FirstTurn = min(o.FirstTurn, f.FirstTurn)
	o.LastTurn = max(o.LastTurn, f.LastTurn)
	o.Flags.Ask += f.Flags.Ask
	o.Flags.Recommended += f.Flags.Recommended
	o.Flags.Err += f.Flags.Err
	folded[k] = o
}
