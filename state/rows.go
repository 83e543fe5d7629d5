package state

import "slices"

// The ledger: one row per tool call, capped at RowCap. A row pushed off the front is folded into its
// (tool, key) pair, never simply lost, so STATS, the LEDGER's `~` lines and the sinks still count a call
// the judge can no longer cite.

// addRow appends one live call: it is numbered, counted on its loop, settles the open instructions it
// bears on (against the ledger as it was before it), and the cap is applied.
func addRow(s *State, row Row, e *Effects) {
	seq := s.Seq + 1
	row.Seq = seq
	settleRow(s, &row, e)
	// A row of a loop nobody has named yet names it here, so the aliases stay in the ledger's order; every
	// row of a loop is counted on it here, so its line reads whole after RowCap has dropped the row.
	if row.Agent != MainAgent {
		withLoop(s, row.Agent, row.Turn, seq, func(l *Loop) { CountRow(l, &row) })
	}
	s.Seq = seq
	ix := s.rowIndex(false)
	s.Rows = append(roomFor(s.Rows, 1), row)
	if ix != nil {
		ix.indexRow(&s.Rows[len(s.Rows)-1])
	}
	capRows(s, ix)
}

// adoptHistory appends rows rebuilt from the transcript of a session joined late. History, not a live call:
// no turn stats exist for it, nothing settles on it and nothing was saved by it; the patterns it matches
// gain it as a hit. The mid-turn cadence starts where the history ends: adopted rows are not new work,
// so a session joined late waits for JudgeMinNewRows of its own (`/saver check` still judges them).
func adoptHistory(s *State, rows []Row) {
	ix := s.rowIndex(false)
	start := len(s.Rows)
	s.Rows = roomFor(s.Rows, len(rows))
	for i := range rows {
		r := rows[i]
		r.Seq = s.Seq + i + 1
		s.Turn = max(s.Turn, r.Turn)
		s.Rows = append(s.Rows, r)
	}
	s.Seq += len(rows)
	adopted := s.Rows[start:]
	for i := range s.Patterns {
		p := &s.Patterns[i]
		for j := range adopted {
			if signatureHit(p, &adopted[j]) {
				p.Hits = pushUnique(p.Hits, adopted[j].ID)
			}
		}
	}
	if ix != nil {
		for j := range adopted {
			ix.indexRow(&adopted[j])
		}
		// A remembered "no cited row" may be wrong now: history can bring rows the hits already named.
		ix.cited = nil
	}
	s.Judge.LastAtSeq = s.Seq
	capRows(s, ix)
}

// capRows folds the rows past RowCap off the front. Re-slicing keeps the mutation rule: the rows dropped
// stay untouched for any clone that still holds them, and later appends land past every clone's length.
func capRows(s *State, ix *lookup) {
	over := len(s.Rows) - RowCap
	if over > 0 {
		if s.Folded == nil {
			s.track.replacedFolded(nil)
			s.Folded = map[string]Folded{}
		}
		o := s.foldOrder()
		foldRows(s.Folded, s.Rows[:over], s.track, o)
		capFolded(s.Folded, o, s.track)
		if ix != nil {
			for i := range s.Rows[:over] {
				ix.forgetRow(&s.Rows[i])
			}
		}
		s.Rows = s.Rows[over:]
	}
	if ix != nil {
		ix.syncRows(s)
	}
}

// roomFor is rows with room for n more. A full ledger moves forward one row per call, so when its
// array runs out it is moved to a fresh one with RowCap rows to spare: one copy per RowCap rows rather
// than append's growth by a quarter (a copy every few hundred rows), and far less garbage. The old array
// is left as it is, for any clone that still reads it.
func roomFor(rows []Row, n int) []Row {
	if len(rows)+n <= cap(rows) {
		return rows
	}
	grown := make([]Row, len(rows), len(rows)+n+RowCap)
	copy(grown, rows)
	return grown
}

// signatureHit reports whether a row carries the pattern's signature.
func signatureHit(p *Pattern, r *Row) bool {
	// The key first: most rows share a tool with most signatures, few share a key.
	return p.Signature != nil && p.Signature.Key == r.Key && p.Signature.Tool == r.Tool
}

// RowPositions reads the reducer's row index of one State: where in s.Rows each row id is. A view
// reads it (State.RowPositions) instead of scanning the ledger; it only reads the index.
type RowPositions struct {
	s  *State
	ix *lookup
}

// RowPositions is s's row index, when s holds a valid one (the live session, not a clone); ok is false
// when it holds none (a clone, or a ledger holding an id twice): the caller scans s.Rows.
func (s *State) RowPositions() (positions RowPositions, ok bool) {
	ix := s.idx
	if ix == nil || ix.rows == nil || ix.rowDups || ix.rowLen != len(s.Rows) || ix.rowHead != firstAddr(s.Rows) ||
		!seqsContiguous(s.Rows) {
		return RowPositions{}, false
	}
	return RowPositions{s: s, ix: ix}, true
}

// Of is the index in s.Rows of the row with id, -1 when the ledger holds none.
func (p RowPositions) Of(id string) int {
	if seq, ok := p.ix.rows[id]; ok {
		if i := seq - p.s.Rows[0].Seq; i >= 0 && i < len(p.s.Rows) && p.s.Rows[i].Seq == seq {
			return i
		}
	}
	return -1
}

// rowIndex is s's row index when it is built and still valid; with build, it is built (or rebuilt) when
// it is not. Unbuilt, it costs the ledger nothing: only a settling pattern needs it.
func (s *State) rowIndex(build bool) *lookup {
	ix := s.idx
	if ix != nil && ix.rows != nil && ix.rowLen == len(s.Rows) && ix.rowHead == firstAddr(s.Rows) {
		return ix
	}
	if !build {
		if ix != nil {
			ix.rows = nil // stale: rebuilt when next needed
		}
		return nil
	}
	ix = s.index()
	ix.rows = make(map[string]int, len(s.Rows))
	ix.rowDups = false
	ix.cited = nil
	for i := range s.Rows {
		ix.indexRow(&s.Rows[i])
	}
	ix.syncRows(s)
	return ix
}

func (ix *lookup) indexRow(r *Row) {
	if _, ok := ix.rows[r.ID]; ok {
		ix.rowDups = true
		return
	}
	ix.rows[r.ID] = r.Seq
}

func (ix *lookup) forgetRow(r *Row) {
	if seq, ok := ix.rows[r.ID]; ok && seq == r.Seq {
		delete(ix.rows, r.ID)
	}
}

func (ix *lookup) syncRows(s *State) {
	ix.rowLen = len(s.Rows)
	ix.rowHead = firstAddr(s.Rows)
}

// firstCited is the first row in ledger order the pattern's hits name (RowsOf's first), or nil.
// It is asked for every main-loop row while an instruction is open, so it is remembered per pattern: a
// pattern's hits only grow at the end (a new call carrying its signature, which lands after every row
// it could precede), and the ledger only loses rows at the front, so the first cited row stays first
// until it is folded away or the hits are replaced; only the hits added since are looked up.
func firstCited(s *State, at int, p *Pattern) *Row {
	if len(p.Hits) == 0 || len(s.Rows) == 0 {
		return nil
	}
	ix := s.rowIndex(true)
	if ix.rowDups || !seqsContiguous(s.Rows) {
		return scanCited(s, p.Hits)
	}
	front := s.Rows[0].Seq
	if len(ix.cited) != len(s.Patterns) {
		ix.cited = make([]citedMemo, len(s.Patterns))
	}
	// The memo is written only when it changes: it holds pointers, and a write of one while the collector
	// marks costs a barrier, on every main-loop row for every open instruction.
	m := &ix.cited[at]
	if head := firstAddr(p.Hits); m.id != p.ID || m.head != head || m.n > len(p.Hits) || (m.seq != 0 && m.seq < front) {
		*m = citedMemo{id: p.ID, head: head}
	}
	if m.n < len(p.Hits) {
		first := m.seq
		for _, h := range p.Hits[m.n:] {
			if seq, ok := ix.rows[h]; ok && (first == 0 || seq < first) {
				first = seq
			}
		}
		m.seq, m.n = first, len(p.Hits)
	}
	if m.seq == 0 {
		return nil
	}
	if i := m.seq - front; i >= 0 && i < len(s.Rows) && s.Rows[i].Seq == m.seq {
		return &s.Rows[i]
	}
	return scanCited(s, p.Hits)
}

// citedMemo is what firstCited last found for the pattern id at one position of s.Patterns: the seq of
// its first cited row (0 for none), over the first n hits of the slice starting at head.
type citedMemo struct {
	id   string
	head *string
	n    int
	seq  int
}

// scanCited is firstCited by scanning the ledger, for a State whose rows the index cannot vouch for.
func scanCited(s *State, hits []string) *Row {
	for i := range s.Rows {
		if slices.Contains(hits, s.Rows[i].ID) {
			return &s.Rows[i]
		}
	}
	return nil
}

// seqsContiguous: the reducer numbers rows one by one, so row i holds seq Rows[0].Seq+i; a State built
// otherwise is read by scanning (firstCited also checks the row it lands on).
func seqsContiguous(rows []Row) bool {
	n := len(rows)
	return n == 0 || rows[n-1].Seq-rows[0].Seq == n-1
}
