package state

import "slices"

// Settlements: how a sent instruction (Fix… or Fix) is credited or found ignored. A row that
// repeats the pattern's signature after the decision's turn means the instruction was ignored: the card
// comes back and nothing is saved. A row of the pattern's class that is not the repeat means it held: the
// difference to the pattern's baseline is saved. An instruction that outlives SettleTurns turns untouched
// is credited its whole baseline; a behavioural pattern (no signature) accrues its per-turn estimate for
// every turn it is believed.
//
// A credit is not for good: each pattern keeps what it was credited (Pattern.Credit), and a relapse — the
// signature's key again in a later turn of the main loop after the instruction settled — takes it back out
// of Saved, counts the instruction ignored and brings the card back (see protocol.md, "Differences from
// ContextSaver"). A behaviour the judge reports again keeps what it accrued and accrues no more.

// settlement is what one pattern's settling adds: saved time and context, whether its card returns, and
// what became of its instruction. It stays this small: it is returned once per pattern per row, the
// reducer's hottest path.
type settlement struct {
	ms, chars float64
	requeue   bool
	outcome   outcome
}

// outcome is what one row did to a pattern's instruction, for the action's Effects.
type outcome uint8

const (
	untouched outcome = iota
	settled           // the open instruction was credited or found ignored
	relapse           // a settled instruction came back; ms and chars take its credit back
)

// settleRow settles every pattern against one row about to be appended (numbered, not yet in the
// ledger), then applies the settlements in pattern order, as ContextSaver does. What it settled and
// brought back is told in e.
func settleRow(s *State, row *Row, e *Effects) {
	var requeue []string
	keyed := s.signedWith(row.Key)
	if row.Agent != MainAgent {
		// Only a pattern carrying the row's key can change: a subagent's row settles no open instruction.
		for _, i := range keyed {
			settleOne(s, i, row, e, &requeue)
		}
		requeueCards(s, requeue)
		return
	}
	for i := range s.Patterns {
		if len(keyed) > 0 && keyed[0] == i {
			keyed = keyed[1:]
		} else if s.Patterns[i].OpenedAtTurn == nil {
			continue // neither the row's key nor an open instruction: settleWithRow would leave it as it is
		}
		settleOne(s, i, row, e, &requeue)
	}
	requeueCards(s, requeue)
}

// settleOne settles the pattern at i against the row and applies the settlement, adding the pattern's
// id to requeue when its card comes back.
func settleOne(s *State, i int, row *Row, e *Effects, requeue *[]string) {
	p := &s.Patterns[i]
	st := settleWithRow(s, i, p, row)
	s.Saved.Ms += st.ms
	s.Saved.Chars += st.chars
	credit(s, p, st.ms, st.chars)
	switch st.outcome {
	case settled:
		e.Settled = append(e.Settled, p.ID)
	case relapse:
		back := Requeue{ID: p.ID}
		if st.ms != 0 || st.chars != 0 {
			back.Credit = Saved{Ms: -st.ms, Chars: -st.chars}
		}
		e.Requeued = append(e.Requeued, back)
	}
	if st.requeue {
		*requeue = append(*requeue, p.ID)
	}
}

// signedWith is the positions in s.Patterns of the patterns whose signature has key, in order, from the
// lookup's index of signatures (rebuilt when Patterns is no longer the slice it was built on). A row
// changes a pattern only when it carries the signature's key (a hit, an ignored or relapsed
// instruction) or it is the main loop's while the instruction is open; settleRow visits only those,
// not every one of the MaxPatterns patterns.
func (s *State) signedWith(key string) []int {
	ix := s.index()
	if ix.signed == nil || ix.sigLen != len(s.Patterns) || ix.sigHead != firstAddr(s.Patterns) {
		ix.signed = make(map[string][]int, len(s.Patterns))
		for i := range s.Patterns {
			if sig := s.Patterns[i].Signature; sig != nil {
				ix.signed[sig.Key] = append(ix.signed[sig.Key], i)
			}
		}
		ix.sigLen, ix.sigHead = len(s.Patterns), firstAddr(s.Patterns)
	}
	return ix.signed[key]
}

// settleWithRow settles one pattern (at its position in s.Patterns) against a row; the pattern gains the
// row as a hit when it carries its signature. Everything it reads (the cited rows, the baseline) is the ledger before the row.
func settleWithRow(s *State, at int, p *Pattern, row *Row) settlement {
	var st settlement
	if relapsed(s, p, row) {
		st = withdraw(s, p)
		p.Ignored++
		st.requeue = true
		st.outcome = relapse
	} else if row.Agent == MainAgent && p.OpenedAtTurn != nil && IsSent(p.Decision) &&
		// A row in the decision's own turn was already in flight before Claude could read the instruction.
		row.Turn > *p.OpenedAtTurn {
		switch {
		case p.Signature != nil && row.Key == p.Signature.Key:
			// Every ignored instruction brings the card back, so the person can Ignore it or say something else.
			p.Ignored++
			p.OpenedAtTurn = nil
			st.requeue = true
			st.outcome = settled
		default:
			if first := firstCited(s, at, p); first != nil && first.Cls == row.Cls {
				base := Baseline(s, p.Hits)
				p.OpenedAtTurn = nil
				st.outcome = settled
				st.ms = max(0, base.Ms-float64(row.Ms))
				st.chars = max(0, base.Chars-float64(row.Chars))
			}
		}
	}
	if signatureHit(p, row) {
		p.Hits = pushUnique(p.Hits, row.ID)
	}
	return st
}

// relapsed reports whether a row repeats a settled instruction's signature: in the main loop, in a turn
// after the decision, while the card is not already back. A sent instruction that is closed and not
// queued has settled (an ignored one waits in the queue until the person decides again), whether or not
// its settlement saved anything.
func relapsed(s *State, p *Pattern, row *Row) bool {
	return row.Agent == MainAgent && p.OpenedAtTurn == nil && IsSent(p.Decision) &&
		p.Signature != nil && row.Key == p.Signature.Key && p.DecidedAtTurn != nil && row.Turn > *p.DecidedAtTurn &&
		!slices.Contains(s.Cards, p.ID)
}

// requeueCards brings each id's card back to the front, in order (the last one ends up first), unless
// it is already queued. The queue is rebuilt, never shifted in place.
func requeueCards(s *State, ids []string) {
	for _, id := range ids {
		if slices.Contains(s.Cards, id) {
			continue
		}
		cards := make([]string, 0, len(s.Cards)+1)
		s.Cards = append(append(cards, id), s.Cards...)
	}
}

// turnComplete counts the turn's re-reads of what the fixes spared and of saverd's own texts (accrueTurn),
// settles every pattern at the end of the turn, then records the turn with its number and the calls the
// ledger holds for it. The instructions it settled are told in e.
func turnComplete(s *State, stat TurnStat, e *Effects) {
	accrueTurn(s)
	for i := range s.Patterns {
		p := &s.Patterns[i]
		open := p.OpenedAtTurn != nil
		ms, chars := settleAtTurn(s, p)
		s.Saved.Ms += ms
		s.Saved.Chars += chars
		credit(s, p, ms, chars)
		if open && p.OpenedAtTurn == nil {
			e.Settled = append(e.Settled, p.ID)
		}
	}
	stat.Turn = s.Turn
	stat.Calls = 0
	for i := range s.Rows {
		if s.Rows[i].Turn == s.Turn {
			stat.Calls++
		}
	}
	if stat.Context != nil {
		stat.Context = new(*stat.Context)
	}
	s.Turns = append(s.Turns, stat)
}

// turnLate adds calls read after their turn ended to the turn that completed last; with no turn
// completed there is none they can belong to.
func turnLate(s *State, a TurnLate) {
	n := len(s.Turns)
	if n == 0 {
		return
	}
	t := &s.Turns[n-1]
	t.Input += a.Tokens.Input
	t.Output += a.Tokens.Output
	t.CacheRead += a.Tokens.CacheRead
	t.CacheCreate += a.Tokens.CacheCreate
	if a.Context != nil {
		t.Context = new(*a.Context)
	}
}

// settleAtTurn credits one pattern at a turn's end: its whole baseline once SettleTurns have passed since
// the decision, plus, for a behavioural pattern still believed, its per-turn estimate. An ignored
// instruction saves nothing, so a behavioural pattern accrues only while nothing ignored it and its card
// is not back in the queue.
func settleAtTurn(s *State, p *Pattern) (ms, chars float64) {
	var accrued float64
	if p.Signature == nil && IsSent(p.Decision) && p.Ignored == 0 && p.EstTokensPerTurn != nil && !slices.Contains(s.Cards, p.ID) {
		accrued = *p.EstTokensPerTurn * 4
	}
	if p.OpenedAtTurn == nil || s.Turn-*p.OpenedAtTurn < SettleTurns {
		return 0, accrued
	}
	base := Baseline(s, p.Hits)
	p.OpenedAtTurn = nil
	return base.Ms, base.Chars + accrued
}
