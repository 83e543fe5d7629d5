package state

// OtherKeys is the key of a folded record that stands for many small ones: the records past FoldedCap,
// merged per tool, class and loop.
const OtherKeys = "(other keys)"

// CapFolded keeps folded at most FoldedCap records: while it holds more, its smallest record by
// characters, then count, then key (the OtherKeys records aside) is merged into the OtherKeys record of
// its tool, class and loop, until it holds FoldedCap or no record but OtherKeys ones is left. Every sum
// the views and the judge draw from folded records (per sink, per class, per loop, the waits) is
// unchanged; only the per-key detail of the smallest is given up. A session of 200,000 distinct commands
// held 700 MB of records without it.
//
// The reducer applies it after every fold (capRows), so a session past the cap holds exactly FoldedCap
// records and each new key merges one: the smallest at that moment, the new one included. A key merged
// away and folded again starts a record of its own. It changes folded in place.
func CapFolded(folded map[string]Folded) { capFolded(folded, newFoldOrder(folded), nil) }

// capFolded is CapFolded, with o the index of folded's records (see foldOrder), kept up to date as
// records merge, and t (when not nil) told what each delete and write replaces. A merge costs O(log n),
// so no call pays for many: trimmed to three quarters of the cap once per FoldedCap/4 new keys instead,
// one call in 500 of a session of distinct commands took 350–700 µs in the daemon.
func capFolded(folded map[string]Folded, o *foldOrder, t *tracking) {
	rebuilt := false
	for len(folded) > FoldedCap {
		s, some := o.top()
		if !some {
			break
		}
		e := &o.ents[s]
		f, held := folded[e.key]
		switch {
		case (!held || f.Key == OtherKeys) && !rebuilt:
			// The map was written behind the index (FoldRows, or a caller's own write, keeping its length):
			// indexed afresh, so a record added that way is not missed either.
			o.rebuild(folded)
			rebuilt = true
			continue
		case !held || f.Key == OtherKeys:
			o.pop()
			continue
		case f.Chars != e.chars || f.Count != e.count: // grown since it was brought up to date
			o.raise(s, f)
			continue
		}
		k := e.key
		o.pop()
		t.wroteFolded(k, f, true)
		delete(folded, k)
		ok := otherKey(f)
		other, had := folded[ok]
		t.wroteFolded(ok, other, had)
		if !had {
			other = Folded{Tool: f.Tool, Key: OtherKeys, Cls: f.Cls, Agent: f.Agent, FirstTurn: f.FirstTurn, LastTurn: f.LastTurn}
		}
		addFolded(&other, f)
		folded[ok] = other
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
