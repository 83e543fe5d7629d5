package state

import (
	"slices"
	"strings"
)

// A daemon that joins a session another daemon held (a restart, an idle exit then a resume) rebuilds
// its ledger from the transcript (Adopt). Rejoined brings back the rest of what the session had, from
// the files that outlive a daemon: the person's decisions and the cards still open (the project's
// registry), what the main loop spent before (the transcript) and what the judges' forks spent (the
// forks log). Without it the rejoined session offered the decided cards again, ran a judge past a spent
// budget and priced the judge at its newest run alone.

// Redecision is one decision the person made on a card of this session before the daemon joined it.
type Redecision struct {
	PatternID string
	Choice    Choice
}

// PriorRuns is what one judge's runs for this session cost before the daemon joined it: how many, their
// billed tokens (input, output and cache writes, as the budget counts), their dollars where priced and
// the billed tokens of the runs that were not.
type PriorRuns struct {
	Runs     int
	Spent    int64
	USD      float64
	Unpriced int64
}

// Rejoined: the daemon joined a session it did not hold, after its ledger was adopted.
type Rejoined struct {
	Decided []Redecision
	// Open is the cards still waiting when the daemon that held the session went away, in the order
	// they were found.
	Open []string
	// Before is what the main loop's calls spent before the daemon joined (the transcript's usage).
	Before  Tokens
	Judge   PriorRuns
	Process PriorRuns
	// Written is the rules the session wrote, skipped or found written ("patternId:kind", as
	// State.Written): it does not offer them again, a write taken back with undo included.
	Written []string
}

func (Rejoined) action() {}

// rejoined applies a Rejoined: each decision stands again as the person made it, without a second
// toast or one-time note (the context got the note when it was made); the open cards queue behind any
// card already there; the spend is counted, and a session the habit judge ran on before counts its new
// work from here, as if the last run had just answered.
func rejoined(s *State, a Rejoined) {
	for _, d := range a.Decided {
		redecide(s, d)
	}
	for _, id := range a.Open {
		if undecidedIn(s.Patterns, id) && !slices.Contains(s.Cards, id) {
			s.Cards = append(slices.Clip(s.Cards), id)
		}
	}
	for _, w := range a.Written {
		s.Written = pushUnique(s.Written, w)
	}
	s.Before = a.Before
	priorRuns(&s.Judge.JudgeRecord, s, a.Judge)
	priorRuns(&s.Process.JudgeRecord, s, a.Process)
	if a.Judge.Runs > 0 {
		s.Judge.LastAtTokens = TotalTokens(s)
		s.Judge.LastAtTurn = s.Turn
	}
}

// priorRuns adds one judge's earlier runs to its record and to the money.
func priorRuns(j *JudgeRecord, s *State, r PriorRuns) {
	j.Runs += r.Runs
	j.Spent += r.Spent
	s.Money.JudgeUSD += r.USD
	s.Money.JudgeUnpriced += r.Unpriced
}

// redecide puts back one decision: the card leaves the queue, and a habit's Fix stands again for the
// session's context and its subagents (what decide sends it). A Fix with the person's own words stands
// decided but sends nothing: the registry never holds the words. A process finding's Fix was a one-time
// re-plan, said already.
func redecide(s *State, d Redecision) {
	p := s.PatternByID(d.PatternID)
	if p == nil || p.Decision != nil {
		return
	}
	p.Decision = new(d.Choice)
	p.DecidedAtTurn = new(s.Turn)
	s.Cards = withoutID(s.Cards, p.ID)
	if d.Choice != Fix || p.IsProcess() {
		return
	}
	text := FixPrompt(&p.StoredPattern)
	if strings.TrimSpace(p.Alternative) == "" {
		return
	}
	p.Instruction = new(text)
	p.OpenedAtTurn = new(s.Turn)
	s.Standing = pushUnique(s.Standing, InstructionOf(text))
}
