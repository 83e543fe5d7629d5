package state

// Loops, runs and journals: every change to a loop goes through withLoop, which creates the loop where
// it is unknown, grows it where it is known and drops the oldest past LoopCap, as ContextSaver does.

// bareLoop is a loop known by nothing but its id yet, dated by the turn and the row that first showed it.
func bareLoop(id string, turn, seq int) Loop { return Loop{ID: id, FirstTurn: turn, FirstSeq: seq} }

// firstAddr is the address of xs's first element, nil when it has none: with the length, what tells an
// index that the slice it was built on is still the one it sees.
func firstAddr[T any](xs []T) *T {
	if len(xs) == 0 {
		return nil
	}
	return &xs[0]
}

// loopIndex is s's loop index, rebuilt when s.Loops is no longer the slice it was built on.
func (s *State) loopIndex() *lookup {
	ix := s.index()
	if ix.loops != nil && ix.loopLen == len(s.Loops) && ix.loopHead == firstAddr(s.Loops) {
		return ix
	}
	ix.loops = make(map[string]int, len(s.Loops))
	ix.loopBase = 0
	s.track.touchAll() // the grown loops it holds were placed by the index's old count
	ix.loopDups = false
	for i := range s.Loops {
		if _, ok := ix.loops[s.Loops[i].ID]; ok {
			ix.loopDups = true
			continue
		}
		ix.loops[s.Loops[i].ID] = i
	}
	ix.syncLoops(s)
	return ix
}

func (ix *lookup) syncLoops(s *State) {
	ix.loopLen = len(s.Loops)
	ix.loopHead = firstAddr(s.Loops)
}

// withLoop applies grow to the loop id, creating it (dated turn and seq) where it is unknown, then drops
// the oldest loops past LoopCap.
func withLoop(s *State, id string, turn, seq int, grow func(*Loop)) {
	ix := s.loopIndex()
	if ix.loopDups {
		s.track.touchAll()
		withLoopScan(s, id, turn, seq, grow)
		ix.loops = nil // re-indexed on next use
		return
	}
	if at, ok := ix.loops[id]; ok && at-ix.loopBase < len(s.Loops) && s.Loops[at-ix.loopBase].ID == id {
		s.track.grewLoop(id, at)
		grow(&s.Loops[at-ix.loopBase])
	} else {
		ix.loops[id] = ix.loopBase + len(s.Loops)
		s.track.grewLoop(id, ix.loops[id])
		s.Loops = append(s.Loops, bareLoop(id, turn, seq))
		grow(&s.Loops[len(s.Loops)-1])
	}
	if over := len(s.Loops) - LoopCap; over > 0 {
		for j := range s.Loops[:over] {
			if at, ok := ix.loops[s.Loops[j].ID]; ok && at == ix.loopBase+j {
				delete(ix.loops, s.Loops[j].ID)
			}
		}
		ix.loopBase += over
		s.Loops = s.Loops[over:]
	}
	ix.syncLoops(s)
}

// withLoopScan is withLoop for a State that holds one id twice (never made by the reducer): every loop
// with the id is grown, as ContextSaver's map over the loops grows them all.
func withLoopScan(s *State, id string, turn, seq int, grow func(*Loop)) {
	found := false
	for i := range s.Loops {
		if s.Loops[i].ID == id {
			grow(&s.Loops[i])
			found = true
		}
	}
	if !found {
		s.Loops = append(s.Loops, bareLoop(id, turn, seq))
		grow(&s.Loops[len(s.Loops)-1])
	}
	if over := len(s.Loops) - LoopCap; over > 0 {
		s.Loops = s.Loops[over:]
	}
}

// loopTurn adds one completed turn of an agent loop to it.
func loopTurn(s *State, a LoopTurn) {
	withLoop(s, a.AgentID, a.Turn, s.Seq, func(l *Loop) {
		l.Turns++
		l.Ms += a.Ms
		l.Tokens.Input += a.Tokens.Input
		l.Tokens.Output += a.Tokens.Output
		l.Tokens.CacheRead += a.Tokens.CacheRead
		l.Tokens.CacheCreate += a.Tokens.CacheCreate
		l.Ended = new(a.Ended)
		if a.Model != nil {
			l.Model = new(*a.Model)
		}
	})
}

// agentStart names a loop from its Agent tool result: an empty description keeps the label it had.
func agentStart(s *State, a AgentStart) {
	withLoop(s, a.AgentID, s.Turn, s.Seq, func(l *Loop) {
		if a.Description != "" {
			l.Label = new(a.Description)
		}
		if a.Model != nil {
			l.Model = new(*a.Model)
		}
	})
}

// runStart records a launched run; a known id is a resume, dated at its first launch.
func runStart(s *State, run RunInfo, now int64) {
	for i := range s.Runs {
		if s.Runs[i].ID == run.ID {
			return
		}
	}
	var dir *string
	if run.Dir != nil {
		dir = new(*run.Dir)
	}
	s.Runs = append(s.Runs, Run{ID: run.ID, Name: run.Name, Dir: dir, Turn: s.Turn, Seq: s.Seq, At: now, Phases: []string{}})
}

// runJournal applies a journal read: a `started` entry names the loop's run, label and stage; any other
// entry is a result and sets what the loop returned. Either creates the loop. The run is dated refreshed.
func runJournal(s *State, a RunJournal) {
	for _, e := range a.Entries {
		withLoop(s, e.AgentID, s.Turn, s.Seq, func(l *Loop) {
			if e.Kind != "started" {
				l.Outcome = copyOutcome(e.Outcome)
				return
			}
			l.Run = new(a.RunID)
			if e.Label != nil {
				l.Label = new(*e.Label)
			}
			if e.Phase != nil {
				l.Phase = new(*e.Phase)
			}
		})
	}
	for i := range s.Runs {
		if s.Runs[i].ID == a.RunID {
			s.Runs[i].RefreshedAt = a.Now
		}
	}
}

func copyOutcome(o *Outcome) *Outcome {
	if o == nil {
		return nil
	}
	c := *o
	return &c
}

// runPhases records the phases the run's script declared (a copy: the caller keeps its slice).
func runPhases(s *State, runID string, phases []string) {
	for i := range s.Runs {
		if s.Runs[i].ID == runID {
			s.Runs[i].Phases = append([]string{}, phases...)
		}
	}
}
