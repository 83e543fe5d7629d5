package state

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"testing"
)

// capByScan is the cap's rule done the plain way: while folded holds more than FoldedCap records, the
// smallest by (chars, count, key), found by looking at every record, merges into its OtherKeys record.
// What the index must agree with, record for record.
func capByScan(folded map[string]Folded) {
	for len(folded) > FoldedCap {
		var least foldEnt
		for k, f := range folded {
			if e := (foldEnt{chars: f.Chars, count: f.Count, key: k}); f.Key != OtherKeys && (least.key == "" || e.less(&least)) {
				least = e
			}
		}
		if least.key == "" {
			return
		}
		f := folded[least.key]
		delete(folded, least.key)
		o, ok := folded[otherKey(f)]
		if !ok {
			o = Folded{Tool: f.Tool, Key: OtherKeys, Cls: f.Cls, Agent: f.Agent, FirstTurn: f.FirstTurn, LastTurn: f.LastTurn}
		}
		addFolded(&o, f)
		folded[otherKey(f)] = o
	}
}

// checkOrder reports how o fails to index m: an entry per record but the OtherKeys ones, none above its
// record (a fold grows a record, and the index may hear of it later), none but an up-to-date one once
// the index is exact and swept, every position and free slot consistent, and the heap in order.
func checkOrder(o *foldOrder, m map[string]Folded) error {
	if !o.matches(m) {
		return fmt.Errorf("the index is of another map, or of %d records where the map holds %d", o.held, len(m))
	}
	swept := o.exact && o.sweep >= len(o.ents)
	n := 0
	for k, f := range m {
		if f.Key == OtherKeys {
			continue
		}
		n++
		s, ok := o.slot[k]
		if !ok {
			return fmt.Errorf("record %q is not indexed", k)
		}
		e := o.ents[s]
		switch {
		case e.key != k || o.heap[e.at] != s:
			return fmt.Errorf("record %q in slot %d, which holds %+v", k, s, e)
		case e.chars > f.Chars || e.count > f.Count:
			return fmt.Errorf("record %q (%d chars, ×%d) indexed above it, as %+v", k, f.Chars, f.Count, e)
		case swept && (e.chars != f.Chars || e.count != f.Count):
			return fmt.Errorf("record %q (%d chars, ×%d) indexed as %+v, the index exact", k, f.Chars, f.Count, e)
		}
	}
	if n != len(o.slot) || n != len(o.heap) || n+len(o.free) != len(o.ents) {
		return fmt.Errorf("%d records indexed in %d slots (%d free) and a heap of %d, want %d", len(o.slot), len(o.ents), len(o.free), len(o.heap), n)
	}
	for i := 1; i < len(o.heap); i++ {
		if o.ents[o.heap[i]].less(&o.ents[o.heap[(i-1)/2]]) {
			return fmt.Errorf("heap position %d is smaller than its parent", i)
		}
	}
	for _, s := range o.free {
		if o.ents[s] != (foldEnt{}) {
			return fmt.Errorf("free slot %d still holds %+v", s, o.ents[s])
		}
	}
	return nil
}

// capRow is row i of a feed whose keys come from key(i), sized by chars(i).
func capRow(i int, key func(int) int, chars func(int) int64) Row {
	k := key(i)
	return Row{ID: fmt.Sprint("r", i), Tool: []string{"Bash", "Read"}[k%2], Key: fmt.Sprintf("key %06d", k),
		Cls: []CommandClass{ClassTest, ClassRead, ClassOther}[k%3], Agent: []string{MainAgent, "sub-1"}[k/2%2],
		Turn: 1 + i/50, Ms: int64(i % 7), Chars: chars(i), Flags: []string{}, Paths: []string{}}
}

// TestCapFoldedMergesTheSmallest: folded a batch at a time, the indexed cap merges exactly what a scan
// of every record would, on the soak's feed (every record tied but its key), sizes in both orders,
// repeated keys that grow past the new ones, OtherKeys records already held and batches of many rows;
// the index describes the map after every batch; and the tracking undoes the merges to the map before.
func TestCapFoldedMergesTheSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		rows  int
		batch int
		key   func(i int) int
		chars func(i int) int64
	}{
		{"distinct, tied but the key", FoldedCap + 900, 1, func(i int) int { return i }, func(int) int64 { return 2046 }},
		{"half repeated, as the soak", 2*FoldedCap + 1000, 1, func(i int) int { return []int{i, i % 50}[i%2] }, func(int) int64 { return 2046 }},
		{"ascending", FoldedCap + 700, 1, func(i int) int { return i }, func(i int) int64 { return int64(i) }},
		{"descending", FoldedCap + 700, 1, func(i int) int { return i }, func(i int) int64 { return int64(-i) }},
		{"few sizes, repeats", 2*FoldedCap + 500, 1, func(i int) int { return rng.IntN(3 * FoldedCap / 2) }, func(i int) int64 { return int64(i % 3) }},
		{"random, in batches", 4 * FoldedCap, 333, func(i int) int { return rng.IntN(4 * FoldedCap) }, func(int) int64 { return rng.Int64N(100) }},
		{"under the cap", FoldedCap, 7, func(i int) int { return i }, func(i int) int64 { return int64(i) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]Folded{}
			o := Folded{Tool: "Bash", Key: OtherKeys, Cls: ClassTest, Agent: MainAgent, Count: 3, Chars: 1, FirstTurn: 5, LastTurn: 9}
			got[otherKey(o)] = o
			want := maps.Clone(got)
			order := newFoldOrder(got)
			for step, at := 0, 0; at < tt.rows; step, at = step+1, at+tt.batch {
				var rows []Row
				for i := at; i < min(tt.rows, at+tt.batch); i++ {
					rows = append(rows, capRow(i, tt.key, tt.chars))
				}
				tr := &tracking{base: &State{}}
				foldRows(want, rows, nil, nil)
				capByScan(want)
				// Compared whole every few batches and after the last: a comparison costs a batch of thousands.
				if step%41 != 0 && at+tt.batch < tt.rows {
					foldRows(got, rows, tr, order)
					capFolded(got, order, tr)
					continue
				}
				before := maps.Clone(got)
				foldRows(got, rows, tr, order)
				capFolded(got, order, tr)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("after row %d: %d records, a scan's cap %d; they differ", at+len(rows), len(got), len(want))
				}
				if err := checkOrder(order, got); err != nil {
					t.Fatalf("after row %d: %v", at+len(rows), err)
				}
				if undone := (&State{Folded: got, track: tr}).foldedAt(tr.base); !reflect.DeepEqual(undone, before) {
					t.Fatalf("after row %d: the tracking undoes the batch to %d records, want the %d before", at+len(rows), len(undone), len(before))
				}
			}
			if tt.rows > FoldedCap && len(got) != FoldedCap {
				t.Errorf("%d records past the cap, want %d", len(got), FoldedCap)
			}
			// Folded a row at a time, the cap is reached with every entry up to date: no merge has an
			// entry to bring up to date.
			if swept := order.exact && order.sweep >= len(order.ents); tt.batch == 1 && len(got) >= FoldedCap && !swept {
				t.Errorf("the cap reached with the index exact %v, swept %d of %d slots", order.exact, order.sweep, len(order.ents))
			}
		})
	}
}

// TestCapFoldedWrittenBehindTheIndex: a record grown or dropped by a write the index was not told of
// (FoldRows, or a caller's own) is found when it comes up, and the cap still merges what a scan would.
func TestCapFoldedWrittenBehindTheIndex(t *testing.T) {
	distinct := func(i int) int { return i }
	size := func(i int) int64 { return int64(i % 10) }
	tests := []struct {
		name  string
		write func(m map[string]Folded)
	}{
		{"the smallest grown", func(m map[string]Folded) { FoldRows(m, []Row{capRow(0, distinct, size)}) }},
		{"a record's count changed in place", func(m map[string]Folded) {
			f := m["Bash\tkey 000010"]
			f.Count += 5
			m["Bash\tkey 000010"] = f
		}},
		{"a record dropped and a smaller one added", func(m map[string]Folded) {
			delete(m, "Bash\tkey 000020")
			FoldRows(m, []Row{{Tool: "Bash", Key: "key !", Cls: ClassTest, Agent: MainAgent}}) // first of all
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]Folded{}
			var rows []Row
			for i := range FoldedCap {
				rows = append(rows, capRow(i, distinct, size))
			}
			order := newFoldOrder(got)
			foldRows(got, rows, nil, order)
			tt.write(got)
			order.held = len(got) // as if the write had kept the length: only the records tell
			want := maps.Clone(got)
			more := []Row{capRow(FoldedCap+1, distinct, size), capRow(FoldedCap+2, distinct, size)}
			foldRows(got, more, nil, order)
			capFolded(got, order, nil)
			foldRows(want, more, nil, nil)
			capByScan(want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d records, a scan's cap %d; they differ", len(got), len(want))
			}
		})
	}
}

// TestFoldOrderAcrossRollback: a session past the cap rolled back to a snapshot and replayed holds the
// same records as the session never rolled back, with an index rebuilt from the resumed map; fed on
// beside it, it merges the same records as it goes; and a State whose map was replaced or cloned indexes
// the map it holds.
func TestFoldOrderAcrossRollback(t *testing.T) {
	soak := func(i int) int { return []int{i, i % 50}[i%2] }
	row := func(i int) Row { return capRow(i, soak, func(i int) int64 { return int64(2046 + i%2*(i%7)) }) }
	live := New("/w", 200_000)
	var snap, resumed *State // resumed: rolled back and replayed, then fed beside live
	var since []Row
	same := func(i int, what string) {
		t.Helper()
		if !reflect.DeepEqual(resumed.Folded, live.Folded) {
			t.Fatalf("row %d, %s: %d folded records, the live session %d; they differ", i, what, len(resumed.Folded), len(live.Folded))
		}
		for name, s := range map[string]*State{"live": live, "resumed": resumed} {
			if err := checkOrder(s.idx.folded, s.Folded); err != nil {
				t.Fatalf("row %d, %s, %s: %v", i, what, name, err)
			}
		}
	}
	for i := range 2*RowCap + 2*FoldedCap + 600 {
		if i%128 == 0 {
			snap, since = live.Snapshot(), since[:0]
		}
		Reduce(live, AddRow{Row: row(i)})
		since = append(since, row(i))
		if resumed != nil {
			Reduce(resumed, AddRow{Row: row(i)})
		}
		if i%97 != 0 || len(live.Folded) < FoldedCap-100 {
			continue
		}
		if resumed != nil {
			same(i, "fed beside")
		}
		resumed = ResumeFrom(snap, live)
		for _, r := range since {
			Reduce(resumed, AddRow{Row: r})
		}
		same(i, "replayed")
	}
	if len(live.Folded) != FoldedCap || resumed == nil {
		t.Fatalf("the session holds %d folded records, want the cap %d", len(live.Folded), FoldedCap)
	}
	for name, s := range map[string]*State{"clone": live.Clone(), "map replaced": live} {
		s.Folded = cloneFolded(s.Folded)
		Reduce(s, AddRow{Row: row(1 << 20)})
		if err := checkOrder(s.idx.folded, s.Folded); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestFoldOrderExactAtTheCap: every record at the cap grown since it was first folded, then a new key
// larger than all of them. Had the index left an entry behind per grown record, the one merge would bring
// them all up to date before it found the smallest (~400 µs for 2,000); exact from FoldedCap/2 records
// on and swept before the cap, it holds every record as it is, so the merge is one pop.
func TestFoldOrderExactAtTheCap(t *testing.T) {
	row := func(i int, chars int64) Row {
		return Row{Tool: "Bash", Key: fmt.Sprintf("grep -rn needle-0-%d src", i), Cls: ClassSearch, Agent: MainAgent, Turn: i, Ms: 40, Chars: chars}
	}
	m := map[string]Folded{}
	o := newFoldOrder(m)
	for i := range FoldedCap {
		foldRows(m, []Row{row(i, 1)}, nil, o)
	}
	for i := range FoldedCap {
		foldRows(m, []Row{row(i, 2046)}, nil, o)
	}
	if err := checkOrder(o, m); err != nil || !o.exact || o.sweep < len(o.ents) {
		t.Fatalf("at the cap: exact %v, swept %d of %d slots: %v", o.exact, o.sweep, len(o.ents), err)
	}
	foldRows(m, []Row{row(FoldedCap, 1<<20)}, nil, o)
	if s, _ := o.top(); m[o.ents[s].key].Chars != o.ents[s].chars {
		t.Fatalf("the top entry %+v is behind its record", o.ents[s])
	}
	capFolded(m, o, nil)
	if err := checkOrder(o, m); err != nil || len(m) != FoldedCap {
		t.Fatalf("after the merge, %d records: %v", len(m), err)
	}
}

// BenchmarkFoldPastCap is one row of the soak's feed folded into a session's records at the cap: every
// other row a new key (tied with every record but for its key, as distinct commands of one output size
// are), the rest one of 50 repeated; the fold, the index kept, and the merge a new key makes, tracked
// as the reducer tracks it.
//
//	go test -run '^$' -bench FoldPastCap -benchmem ./state
func BenchmarkFoldPastCap(b *testing.B) {
	row := func(i int) Row {
		key := fmt.Sprintf("grep -rn needle-0-%d src", i)
		if i%2 == 1 {
			key = fmt.Sprintf("npm test suite-%02d", i%50)
		}
		return Row{Tool: "Bash", Key: key, Cls: ClassSearch, Agent: MainAgent, Turn: i, Ms: 40, Chars: 2046}
	}
	m := map[string]Folded{}
	o := newFoldOrder(m)
	i := 0
	for ; len(m) < FoldedCap; i++ {
		foldRows(m, []Row{row(i)}, nil, o)
	}
	rows := make([]Row, 1<<16)
	for j := range rows {
		rows[j] = row(i + j)
	}
	t := &tracking{}
	b.ReportAllocs()
	j := 0
	for b.Loop() {
		foldRows(m, rows[j:j+1], t, o)
		capFolded(m, o, t)
		if j++; j == len(rows) {
			j = 0
		}
		if len(t.undo) >= 3*128 { // the daemon snapshots every 128 actions
			t.restart()
		}
	}
}
