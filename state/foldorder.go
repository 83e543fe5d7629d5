package state

import "reflect"

// foldOrder is the reducer's index of the folded records capFolded merges from: an entry per record but
// the OtherKeys ones, in a min-heap by (chars, count, key), so the smallest is found at the top.
//
// An entry holds what its record held when it was indexed, and a fold that grows a record leaves its
// entry as it was: the reducer only ever grows a record (count and characters never fall), so an entry
// is never above its record, and when the top entry matches its record, that record is the smallest
// (every other record is at least its entry, which is at least the top). A top entry that no longer
// matches is brought up to its record and moved down before the next look (capFolded). So a fold of a
// key already held costs the index nothing, a new key one push (O(log n)), and a merge one pop plus the
// entries it brings up to date, each paid for by an earlier fold that grew its record.
//
// It describes one map, checked by identity and length before each use; a State whose map was
// replaced, resumed, cloned or decoded indexes it afresh on its next fold. It is never journaled: the
// order is total (a key is held once), so any index of the same records merges the same records in the
// same order, and a rebuilt index acts exactly as the one it replaces.
type foldOrder struct {
	of   uintptr   // the map indexed (its identity)
	held int       // len of that map when the index last matched it
	heap []foldEnt // heap ordered: heap[0] is the smallest entry
}

// foldEnt is a record as the index holds it: its key and what it held when indexed.
type foldEnt struct {
	chars int64
	count int
	key   string
}

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
func (o *foldOrder) matches(m map[string]Folded) bool { return o.of == mapID(m) && o.held == len(m) }

// newFoldOrder indexes m's records.
func newFoldOrder(m map[string]Folded) *foldOrder {
	o := &foldOrder{heap: make([]foldEnt, 0, len(m))}
	o.rebuild(m)
	return o
}

// rebuild indexes m afresh (heapified at once, O(n)), keeping o's array.
func (o *foldOrder) rebuild(m map[string]Folded) {
	clear(o.heap)
	o.heap = o.heap[:0]
	for k, f := range m {
		if f.Key != OtherKeys {
			o.heap = append(o.heap, foldEnt{chars: f.Chars, count: f.Count, key: k})
		}
	}
	for i := len(o.heap)/2 - 1; i >= 0; i-- {
		o.down(i)
	}
	o.of, o.held = mapID(m), len(m)
}

// added indexes the record just made under k: the fold that made it.
func (o *foldOrder) added(k string, f Folded) {
	if f.Key == OtherKeys {
		return
	}
	o.heap = append(o.heap, foldEnt{chars: f.Chars, count: f.Count, key: k})
	o.up(len(o.heap) - 1)
}

// pop drops the top entry.
func (o *foldOrder) pop() {
	last := len(o.heap) - 1
	o.heap[0] = o.heap[last]
	o.heap[last] = foldEnt{} // the key is not kept alive past the heap's length
	o.heap = o.heap[:last]
	if last > 0 {
		o.down(0)
	}
}

// raiseTop brings the top entry up to f, its record now, and moves it down to its place.
func (o *foldOrder) raiseTop(f Folded) {
	o.heap[0].chars, o.heap[0].count = f.Chars, f.Count
	o.down(0)
}

func (o *foldOrder) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !o.heap[i].less(&o.heap[p]) {
			return
		}
		o.heap[i], o.heap[p] = o.heap[p], o.heap[i]
		i = p
	}
}

func (o *foldOrder) down(i int) {
	n := len(o.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && o.heap[r].less(&o.heap[c]) {
			c = r
		}
		if !o.heap[c].less(&o.heap[i]) {
			return
		}
		o.heap[i], o.heap[c] = o.heap[c], o.heap[i]
		i = c
	}
}
