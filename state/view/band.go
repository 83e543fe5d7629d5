package view

import (
	"slices"

	"github.com/saverd/saverd/state"
)

// The band: the one teaser line above the prompt.

// ClockOf is the latest clock the state has seen: a turn's completion or a run's launch (0 with none).
// Without a clock a loopless run would read as fresh forever, so the band takes the newest reading it
// holds when the caller has none.
func ClockOf(s *state.State) int64 {
	var clock int64
	for i := range s.Turns {
		clock = max(clock, s.Turns[i].At)
	}
	for i := range s.Runs {
		clock = max(clock, s.Runs[i].At)
	}
	return clock
}

// BuildBand is the band's model dated by the state's own clock (ClockOf).
func BuildBand(s *state.State) BandModel { return BuildBandAt(s, ClockOf(s)) }

// BuildBandAt is the band's model; now dates a loopless run's freshness.
func BuildBandAt(s *state.State, now int64) BandModel {
	ms, chars := waitingCost(s)
	died := diedOf(s)
	return BandModel{
		State:      bandState(s, died),
		Died:       died,
		Running:    runningOf(s, now),
		Fresh:      len(s.Cards),
		CostPct:    state.PctOf(chars, s.Usage.Window),
		CostMs:     ms,
		SavedPct:   state.PctOf(s.Saved.Chars, s.Usage.Window),
		SavedMs:    s.Saved.Ms,
		SavedChars: s.Saved.Chars,
		Money:      MoneyOf(s),
		Calls:      len(s.Rows),
		PaneOpen:   s.PaneOpen,
	}
}

// waitingCost is what the cards still awaiting a decision have already cost: the figures the teaser states.
func waitingCost(s *state.State) (ms, chars float64) {
	cards, _ := queued(s)
	find := rowFinder(s, cards)
	for _, p := range cards {
		t := totalOf(p, citedOf(p, s, find(p.Hits)))
		ms += t.Ms
		chars += t.Chars
	}
	return ms, chars
}

// diedOf is the last turn's end when it was an error or a refusal and no prompt has followed it: the
// session stopped.
func diedOf(s *state.State) *state.TurnEnd {
	n := len(s.Turns)
	if n == 0 || s.Turns[n-1].Turn != s.Turn {
		return nil
	}
	if e := s.Turns[n-1].Ended; e == state.EndError || e == state.EndRefusal {
		return new(e)
	}
	return nil
}

// runningOf is the newest run still going: how many loops it has launched, how many calls they made,
// which stage is running.
func runningOf(s *state.State, now int64) *BandRunning {
	active := state.ActiveRuns(s, now)
	if len(active) == 0 {
		return nil
	}
	run := active[len(active)-1]
	var ids []string
	var label *string
	for i := range s.Loops {
		l := &s.Loops[i]
		if l.Run == nil || *l.Run != run.ID {
			continue
		}
		ids = append(ids, l.ID) // a loop id held twice counts twice, as ContextSaver's filter
		if l.Ended == nil {
			label = l.Label
		}
	}
	return &BandRunning{Name: run.Name, Loops: len(ids), Calls: callsOf(s.Rows, ids), Label: state.CopyStr(label)}
}

// callsOf is the rows made by the loops ids: compared in place for a few loops, through a set for many.
func callsOf(rows []state.Row, ids []string) int {
	calls := 0
	if len(ids) <= 8 {
		for i := range rows {
			if rows[i].Agent != state.MainAgent && slices.Contains(ids, rows[i].Agent) {
				calls++
			}
		}
		return calls
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	for i := range rows {
		if set[rows[i].Agent] {
			calls++
		}
	}
	return calls
}

// bandState is the first state that applies: a dead turn, a judge run in flight, cards waiting, a saving
// to show off, else watching.
func bandState(s *state.State, died *state.TurnEnd) string {
	switch {
	case died != nil:
		return BandDied
	case s.Judge.Running:
		return BandChecking
	case len(s.Cards) > 0:
		return BandFound
	case s.Saved.Chars > 0 || s.Saved.Ms > 0:
		return BandSaved
	}
	return BandWatching
}
