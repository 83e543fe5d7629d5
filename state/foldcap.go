package state

// OtherKeys is the key of a folded record that stands for many small ones: the records past FoldedCap,
// merged per tool, class and loop.
const OtherKeys = "(other keys)"

// CapFolded keeps folded at most FoldedCap records: while it holds more, its smallest record by
// characters, then count, then key (the OtherKeys records aside) is merged into the OtherKeys record of
// its tool, class and loop, until it holds FoldedCap or only OtherKeys records are left to merge. Every sum
// the views and the judge draw from folded records (per sink, per class, per loop, the waits) is
// unchanged; only the per-key detail of the smallest is given up. A session of 200,000 distinct commands
// held 700 MB of records without it.
//
// The reducer applies it after every fold (capRows), so past the cap each new key merges one record,
// the smallest at that moment: the FoldedCap largest are kept, by what they held when the smallest went.
// A key merged away and folded again starts a record of its own. It changes folded in place.
func CapFolded(folded map[string]Folded) { capFolded(folded, newFoldOrder(folded), nil) }

// capFolded is CapFolded, with o the index of folded's records (kept up to date as records merge) and t
// (when not nil) told what each delete and write replaces. A merge is O(log n), so no call pays for a
// trim of many records: a trim to three quarters of the cap once per FoldedCap/4 new keys cost one call
// in 500 of a session of distinct commands 350–700 µs.
func capFolded(folded map[string]Folded, o *foldOrder, t *tracking) {
	rebuilt := false
	for len(folded) > FoldedCap {
		e, ok := o.smallest()
		if !ok {
			break
		}
		f, held := folded[e.key]
		if !held || f.Key == OtherKeys || f.Chars != e.chars || f.Count != e.count {
			// The map was written behind the index (FoldRows, or a caller's own write): indexed again.
			if rebuilt {
				break
			}
			o.rebuild(folded)
			rebuilt = true
			continue
		}
		o.popSmallest()
		t.wroteFolded(e.key, f, true)
		delete(folded, e.key)
		k := otherKey(f)
		other, had := folded[k]
		t.wroteFolded(k, other, had)
		if !had {
			other = Folded{Tool: f.Tool, Key: OtherKeys, Cls: f.Cls, Agent: f.Agent, FirstTurn: f.FirstTurn, LastTurn: f.LastTurn}
		}
		addFolded(&other, f)
		folded[k] = other
	}
	o.held = len(folded)
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
