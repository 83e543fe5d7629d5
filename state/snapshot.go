package state

import (
	"maps"
	"slices"
)

// Snapshots. A daemon keeps one snapshot per session so that a failed event can be rolled back (the
// snapshot, then the actions since). A Clone copies every loop and every folded record (at a full
// session ~126 KB, ~100 µs); Snapshot brings the previous snapshot up to date instead, copying only the
// loops the reducer grew since, and holds no folded records at all: they are the live state's, less
// the writes made since, which the tracking keeps with what each replaced (ResumeFrom undoes them). So
// a snapshot's cost follows what changed, not the session's size, and it is not a second copy of the
// largest part of the state.

// tracking is what the reducer changed in place since base, the snapshot it is relative to. The lists
// are appended to as the reducer goes, cheaper on its path than a set; an id or key may repeat.
type tracking struct {
	base  *State
	loops []grownLoop // loops grown
	// undo is every write to the folded records since base, in order, with what it replaced.
	undo []foldedUndo
	// all: the loops were changed in a way the list does not describe (a loop id held twice, the loop
	// index rebuilt); the next snapshot copies them all.
	all bool
}

// grownLoop is a loop grown: its id, and its place counted from the first loop the session ever held
// (the loop index's count, so it still finds the loop after older ones are dropped off the front).
type grownLoop struct {
	id string
	at int
}

// foldedUndo is what one write to the folded records replaced: the record under key (had says there
// was one), or, when replaced is set, the whole map (was).
type foldedUndo struct {
	key      string
	prev     Folded
	had      bool
	replaced bool
	was      map[string]Folded
}

func (t *tracking) grewLoop(id string, at int) {
	if t != nil {
		t.loops = append(t.loops, grownLoop{id, at})
	}
}

// wroteFolded notes that the record under k is about to change; prev and had are what it holds now.
func (t *tracking) wroteFolded(k string, prev Folded, had bool) {
	if t != nil {
		t.undo = append(t.undo, foldedUndo{key: k, prev: prev, had: had})
	}
}

// replacedFolded notes that the folded map is being replaced whole; was is the map it held, which
// nothing writes again.
func (t *tracking) replacedFolded(was map[string]Folded) {
	if t != nil {
		t.undo = append(t.undo, foldedUndo{replaced: true, was: was})
	}
}

func (t *tracking) touchAll() {
	if t != nil {
		t.all = true
	}
}

// Snapshot is what s holds, for a later ResumeFrom(snapshot, s) to rebuild s as it is now whatever Reduce
// does to s after: a Clone of s but for its folded records (nil), which ResumeFrom takes from s with the
// writes since undone. It is made by updating the snapshot s.Snapshot returned last, in place, with
// what the reducer changed since; the first one (or one after a change the tracking does not describe)
// is a Clone. So the caller keeps only the newest snapshot and never reduces it.
func (s *State) Snapshot() *State {
	t := s.track
	var loopBase int
	if t != nil && t.base != nil {
		loopBase = s.loopIndex().loopBase // an index built afresh here marks t.all
	}
	if t == nil || t.base == nil || t.all {
		return s.snapshotWhole()
	}
	b := t.base
	loops, turns, patterns := b.Loops, b.Turns, b.Patterns
	*b = *s
	b.idx, b.track, b.Folded = nil, nil, nil
	b.shareAppendOnly(s)
	b.Runs = slices.Clone(s.Runs)
	b.Cards = slices.Clone(s.Cards)
	// Patterns is small (MaxPatterns) but edited anywhere: copied whole, into the old array when it fits.
	b.Patterns = append(patterns[:0], s.Patterns...)
	b.clipHits()
	// Only a turn's idle time, on the newest turn, is written in place: the turns before it are as the
	// snapshot holds them.
	keep := max(0, min(len(turns), len(s.Turns))-1)
	b.Turns = append(turns[:keep], s.Turns[keep:]...)
	var ok bool
	if b.Loops, ok = syncLoops(loops, s.Loops, t.loops, loopBase); !ok {
		return s.snapshotWhole()
	}
	t.restart()
	return b
}

// trackKeep is the most entries a list of the tracking keeps its array for between snapshots: enough for
// the 128 actions between two of the daemon's (a row past the cap writes three: its own record, the one
// it merges away and that one's OtherKeys record), so the lists are not allocated again each time, and
// not a burst's (a late session's history folded at once): an entry is ~160 bytes.
const trackKeep = 512

// restart empties the tracking for the next snapshot, keeping the lists' arrays (cleared, so the keys
// and maps they held are not kept alive) unless a rare burst made them large.
func (t *tracking) restart() {
	clear(t.loops)
	clear(t.undo)
	t.loops, t.undo = t.loops[:0], t.undo[:0]
	if cap(t.loops) > trackKeep {
		t.loops = nil
	}
	if cap(t.undo) > trackKeep {
		t.undo = nil
	}
}

// snapshotWhole is a Snapshot made by a Clone, and the base of the next one.
func (s *State) snapshotWhole() *State {
	c := s.Clone()
	c.Folded = nil
	s.track = &tracking{base: c}
	return c
}

// ResumeFrom is a state to reduce from snap, a snapshot live.Snapshot made: snap's state with the folded
// records live holds less the writes live made since, tracked against snap, so the next Snapshot of the
// result updates snap rather than copying it whole. live is not changed.
func ResumeFrom(snap, live *State) *State {
	c := snap.Clone()
	c.Folded = live.foldedAt(snap)
	c.loopIndex() // built before the tracking starts, so the loops it places are counted one way
	c.track = &tracking{base: snap}
	return c
}

// foldedAt is a copy of the folded records as s held them when it took snap: its own, with the writes
// since undone, newest first. For a snap s did not take (the daemon never asks) it is s's own.
func (s *State) foldedAt(snap *State) map[string]Folded {
	m := cloneFolded(s.Folded)
	if s.track == nil || s.track.base != snap {
		return m
	}
	for i := len(s.track.undo) - 1; i >= 0; i-- {
		switch u := &s.track.undo[i]; {
		case u.replaced:
			m = cloneFolded(u.was)
		case u.had:
			m[u.key] = u.prev
		default:
			delete(m, u.key)
		}
	}
	return m
}

// syncLoops makes old (the snapshot's loops) equal to cur: the loops dropped off cur's front are dropped,
// the ones appended since are copied, and of the rest only those grown (placed by cur's index's count of
// loops dropped, loopBase). It reports false when old and cur do not line up by id, which the reducer's
// drop-from-front and append never make.
func syncLoops(old, cur []Loop, grown []grownLoop, loopBase int) ([]Loop, bool) {
	if len(cur) == 0 {
		return old[:0], true
	}
	drop := slices.IndexFunc(old, func(l Loop) bool { return l.ID == cur[0].ID })
	if drop < 0 {
		drop = len(old)
	}
	kept := len(old) - drop
	if kept > len(cur) {
		return nil, false
	}
	out := old[drop:] // old's array is the snapshot's own, shared with nothing
	if cap(out) < len(cur) {
		// Room for LoopCap more loops, so this copy is paid once per LoopCap loops launched.
		out = append(make([]Loop, 0, len(cur)+LoopCap), out...)
	}
	out = append(out, cur[kept:]...)
	for i := range kept {
		if out[i].ID != cur[i].ID {
			return nil, false
		}
	}
	for _, g := range grown {
		at := g.at - loopBase
		if at < 0 || at >= len(cur) || cur[at].ID != g.id {
			continue // dropped since it grew (a loop dropped and launched again was appended whole)
		}
		out[at] = cur[at]
	}
	return out, true
}

// shareAppendOnly points s's append-only slices at from's, clipped to their length, so an append on either
// reallocates rather than write into spare capacity the other may append into too.
func (s *State) shareAppendOnly(from *State) {
	s.Rows = slices.Clip(from.Rows)
	s.Notes = slices.Clip(from.Notes)
	s.Standing = slices.Clip(from.Standing)
	s.Written = slices.Clip(from.Written)
	s.Asks = slices.Clip(from.Asks)
	s.Compactions = slices.Clip(from.Compactions)
	s.Delivery.Agents = slices.Clip(from.Delivery.Agents)
}

// clipHits clips each pattern's hits, which the reducer only appends to.
func (s *State) clipHits() {
	for i := range s.Patterns {
		s.Patterns[i].Hits = slices.Clip(s.Patterns[i].Hits)
	}
}

// cloneFolded is a copy of the folded records.
func cloneFolded(m map[string]Folded) map[string]Folded {
	c := make(map[string]Folded, len(m))
	maps.Copy(c, m)
	return c
}
