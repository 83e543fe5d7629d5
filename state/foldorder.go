package state

import "reflect"

// foldOrder is the reducer's index of the folded records capFolded merges from: an entry per record but
// the OtherKeys ones, in a min-heap by (chars, count, key), so the smallest is at the top.
//
// An entry holds what its record held when it was last brought up to date, never more: the reducer only
// grows a record (count and characters never fall). So when the top entry matches its record, that
// record is the smallest (every other record is at least its entry, which is at least the top), and a top
// entry that does not match is brought up to its record and moved down before the next look (capFolded).
//
// Under FoldedCap/2 records nothing merges, and a fold that grows a record leaves its entry as it was:
// the ledger's ordinary folds cost the index nothing. From FoldedCap/2 on the index is exact: a grown
// record's entry is moved to its place as it grows (a lookup and O(log n)), and each fold also brings
// sweepStep of the entries left behind up to date, so by the time the cap is reached (FoldedCap/2 new
// keys later) every entry matches its record and a merge is one pop, O(log n). Only a fold of many rows
// at once (a late session's history) can reach the cap before the sweep ends, and the entries its merges
// bring up to date are bounded by the rows it folds.
//
// It describes one map, checked by identity and length before each use; a State whose map was
// replaced, resumed, cloned or decoded indexes it afresh on its next fold. It is never journaled: the
// order is total (a key is held once), so any index of the same records merges the same records in the
// same order, and a rebuilt index acts exactly as the one it replaces.
//
// A record has a slot, stable while it is held; the heap holds slots, so a record moving in the heap
// rewrites its slot's position, never a map entry.
type foldOrder struct {
	of   map[string]Folded // the map indexed, held to compare identities with (mapID)
	held int               // len of that map when the index last matched it

	slot map[string]int32 // record key → its slot
	ents []foldEnt        // by slot; a free slot's key is ""
	heap []int32          // slots, heap ordered: ents[heap[0]] is the smallest
	free []int32          // slots of records merged away, for reuse

	exact bool // grown records are moved as they grow (FoldedCap/2 records or more)
	sweep int  // the slots below it were brought up to date since exact began
}

// foldEnt is a record as the index holds it: its key, what it held when last brought up to date, and
// its position in the heap.
type foldEnt struct {
	chars int64
	count int
	key   string
	at    int32
}

// sweepStep is how many entries left behind each fold brings up to date once the index is exact: two
// per fold covers the FoldedCap/2 entries before FoldedCap/2 more new keys reach the cap.
const sweepStep = 2

func (a *foldEnt) less(b *foldEnt) bool {
	if a.chars != b.chars {
		return a.chars < b.chars
	}
	if a.count != b.count {
		return a.count < b.count
	}
	return a.key < b.key
}

// mapID is m's identity: two maps share it only when they are one map.
func mapID(m map[string]Folded) uintptr { return uintptr(reflect.ValueOf(m).UnsafePointer()) }

// foldOrder is s's index of its folded records, built from s.Folded when it does not describe it.
func (s *State) foldOrder() *foldOrder {
	ix := s.index()
	if o := ix.folded; o != nil && o.matches(s.Folded) {
		return o
	}
	ix.folded = newFoldOrder(s.Folded)
	return ix.folded
}

// matches reports whether o indexes m as m is now.
func (o *foldOrder) matches(m map[string]Folded) bool {
	return mapID(o.of) == mapID(m) && o.held == len(m)
}

// newFoldOrder indexes m's records.
func newFoldOrder(m map[string]Folded) *foldOrder {
	o := &foldOrder{slot: make(map[string]int32, len(m)), ents: make([]foldEnt, 0, len(m)), heap: make([]int32, 0, len(m))}
	o.rebuild(m)
	return o
}

// rebuild indexes m afresh (heapified at once, O(n)), every entry up to date.
func (o *foldOrder) rebuild(m map[string]Folded) {
	clear(o.slot)
	clear(o.ents)
	o.ents, o.heap, o.free = o.ents[:0], o.heap[:0], o.free[:0]
	for k, f := range m {
		if f.Key == OtherKeys {
			continue
		}
		s := int32(len(o.ents))
		o.slot[k] = s
		o.ents = append(o.ents, foldEnt{chars: f.Chars, count: f.Count, key: k, at: s})
		o.heap = append(o.heap, s)
	}
	for i := len(o.heap)/2 - 1; i >= 0; i-- {
		o.down(i)
	}
	o.of, o.held = m, len(m)
	o.exact, o.sweep = len(m) >= FoldedCap/2, len(o.ents)
}

// added indexes the record just made under k.
func (o *foldOrder) added(k string, f Folded) {
	if f.Key == OtherKeys {
		return
	}
	var s int32
	if n := len(o.free); n > 0 {
		s, o.free = o.free[n-1], o.free[:n-1]
	} else {
		s = int32(len(o.ents))
		o.ents = append(o.ents, foldEnt{})
	}
	o.ents[s] = foldEnt{chars: f.Chars, count: f.Count, key: k, at: int32(len(o.heap))}
	o.slot[k] = s
	o.heap = append(o.heap, s)
	o.up(len(o.heap) - 1)
}

// grew tells o that the record under k, which it held, now holds f; under FoldedCap/2 records it is not
// looked at.
func (o *foldOrder) grew(k string, f Folded) {
	if !o.exact {
		return
	}
	if s, ok := o.slot[k]; ok {
		o.raise(s, f)
	}
}

// folded is told after each fold: the map holds n records now. At FoldedCap/2 the index turns exact;
// until every slot has been swept, each fold brings sweepStep more up to date from m.
func (o *foldOrder) folded(m map[string]Folded) {
	o.held = len(m)
	if !o.exact {
		if o.held < FoldedCap/2 {
			return
		}
		o.exact, o.sweep = true, 0
	}
	for end := min(len(o.ents), o.sweep+sweepStep); o.sweep < end; o.sweep++ {
		if e := &o.ents[o.sweep]; e.key != "" {
			if f, ok := m[e.key]; ok {
				o.raise(int32(o.sweep), f)
			}
		}
	}
}

// raise brings slot s up to f, its record now, and moves it to its place.
func (o *foldOrder) raise(s int32, f Folded) {
	e := &o.ents[s]
	if e.chars == f.Chars && e.count == f.Count {
		return
	}
	e.chars, e.count = f.Chars, f.Count
	if at := int(e.at); !o.up(at) {
		o.down(at)
	}
}

// top is the smallest entry's slot; ok is false when the index holds none.
func (o *foldOrder) top() (s int32, ok bool) {
	if len(o.heap) == 0 {
		return 0, false
	}
	return o.heap[0], true
}

// pop drops the smallest entry.
func (o *foldOrder) pop() {
	s := o.heap[0]
	last := len(o.heap) - 1
	o.swap(0, last)
	o.heap = o.heap[:last]
	if last > 0 {
		o.down(0)
	}
	delete(o.slot, o.ents[s].key)
	o.ents[s] = foldEnt{} // the key is not kept alive by a free slot
	o.free = append(o.free, s)
}

// up moves the entry at position i towards the root while it is smaller than its parent, and reports
// whether it moved.
func (o *foldOrder) up(i int) bool {
	start := i
	for i > 0 {
		p := (i - 1) / 2
		if !o.ents[o.heap[i]].less(&o.ents[o.heap[p]]) {
			break
		}
		o.swap(i, p)
		i = p
	}
	return i != start
}

// down moves the entry at position i towards the leaves while a child is smaller.
func (o *foldOrder) down(i int) {
	n := len(o.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && o.ents[o.heap[r]].less(&o.ents[o.heap[c]]) {
			c = r
		}
		if !o.ents[o.heap[c]].less(&o.ents[o.heap[i]]) {
			return
		}
		o.swap(i, c)
		i = c
	}
}

func (o *foldOrder) swap(i, j int) {
	o.heap[i], o.heap[j] = o.heap[j], o.heap[i]
	o.ents[o.heap[i]].at = int32(i)
	o.ents[o.heap[j]].at = int32(j)
}
