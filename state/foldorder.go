package state

import "reflect"

// foldOrder is the reducer's index of the folded records capFolded merges from: every record but the
// OtherKeys ones, in a min-heap by (chars, count, key), so the smallest is found in O(1) and kept in
// order in O(log n) as a fold grows a record or adds one. It describes one map (checked by identity and
// length before each use, like the row index's checks); a State whose map was replaced, resumed,
// cloned or decoded rebuilds it from the map on its next fold. It is never journaled: the order is
// total (a key is held once), so any heap of the same records merges the same records in the same
// order, and a rebuilt index acts exactly as the one it replaces.
//
// A record has a slot, stable while it is held; the heap holds slots. A record moving in the heap
// rewrites only its slot's position, never a map entry.
type foldOrder struct {
	of   uintptr // the map indexed (its identity; 0 for a nil map)
	held int     // len of that map when the index last matched it

	slot map[string]int32 // record key → its slot
	ents []foldEnt        // by slot
	heap []int32          // slots, heap ordered: ents[heap[0]] is the smallest
	free []int32          // slots of records merged away, for reuse
}

// foldEnt is what the heap orders a record by, and where it sits in the heap.
type foldEnt struct {
	chars int64
	count int
	key   string
	at    int32
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

// foldOrder is s's index of its folded records, rebuilt from s.Folded when it does not describe it.
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

// newFoldOrder indexes m's records (heapified at once, O(n)).
func newFoldOrder(m map[string]Folded) *foldOrder {
	o := &foldOrder{slot: make(map[string]int32, len(m)), ents: make([]foldEnt, 0, len(m)), heap: make([]int32, 0, len(m))}
	o.rebuild(m)
	return o
}

// rebuild indexes m afresh, keeping o's arrays.
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
	o.of, o.held = mapID(m), len(m)
}

// put tells o that the record under k now holds f; isNew says the map did not hold k before.
func (o *foldOrder) put(k string, f Folded, isNew bool) {
	if f.Key == OtherKeys {
		return
	}
	if !isNew {
		if s, ok := o.slot[k]; ok {
			e := &o.ents[s]
			e.chars, e.count = f.Chars, f.Count
			o.fix(int(e.at))
			return
		}
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

// smallest is the key and ordering of the smallest record indexed; ok is false when none is.
func (o *foldOrder) smallest() (e foldEnt, ok bool) {
	if len(o.heap) == 0 {
		return foldEnt{}, false
	}
	return o.ents[o.heap[0]], true
}

// popSmallest drops the smallest record from the index.
func (o *foldOrder) popSmallest() {
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

// fix restores the heap after the record at position i changed.
func (o *foldOrder) fix(i int) {
	if !o.up(i) {
		o.down(i)
	}
}

// up moves the record at position i towards the root while it is smaller than its parent, and reports
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

// down moves the record at position i towards the leaves while a child is smaller.
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
