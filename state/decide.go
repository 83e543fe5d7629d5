package state

import (
	"slices"
	"strings"
	"unicode"
)

// Decisions, and what the judges' answers share with them (see judges.go for the runs).

// replan is the prefix of the one-time re-plan a process Fix sends.
const replan = "Change the remaining work: "

// replanOf is the re-plan said once, even when the finding's own words already say it.
func replanOf(text string) string {
	if strings.HasPrefix(strings.ToLower(strings.TrimLeftFunc(text, unicode.IsSpace)), strings.ToLower(replan)) {
		return strings.TrimSpace(text)
	}
	return replan + strings.TrimSpace(text)
}

// decide applies the person's choice on a card. Ignore sends nothing; Fix… (FixWithNote) sends the person's
// text and Fix sends the kill prompt for a habit, the lean alternative itself for a process finding.
// An empty instruction decides nothing. Whatever is sent rides the same wrapper (InstructionOf) as a
// one-shot note; a habit's also stands for every subagent launched after, a re-plan is the
// orchestrator's, once. A choice the pattern carries afterwards is told in e.
func decide(s *State, id string, choice Choice, text *string, e *Effects) {
	p := s.PatternByID(id)
	if p == nil {
		return
	}
	process := p.Lean != nil
	var instruction string
	switch {
	case choice == Fix && process:
		instruction = p.Alternative
	case choice == Fix:
		instruction = FixPrompt(&p.StoredPattern)
	case text != nil:
		instruction = *text
	}
	sending := choice != Ignore
	if sending && strings.TrimSpace(instruction) == "" {
		if p.Decided(choice) {
			e.Decided = id
		}
		return
	}
	e.Decided = id
	p.Decision = new(choice)
	p.DecidedAtTurn = new(s.Turn)
	p.LastDecision = new(choice)
	if sending {
		p.Instruction = new(instruction)
		p.OpenedAtTurn = new(s.Turn)
	}
	s.Cards = withoutID(s.Cards, id)
	if s.Expanded != nil && *s.Expanded == id {
		s.Expanded = nil
	}
	s.Steering = nil
	s.SteerDraft = nil
	if !sending {
		return
	}
	sent := instruction
	if process {
		sent = replanOf(instruction)
	}
	note := InstructionOf(sent)
	s.Notes = pushUnique(s.Notes, note)
	if !process {
		s.Standing = pushUnique(s.Standing, note)
	}
}

// withoutID is a new slice of xs without x.
func withoutID(xs []string, x string) []string {
	out := make([]string, 0, len(xs))
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// patternIn is the first pattern with id in ps, or nil.
func patternIn(ps []Pattern, id string) *Pattern {
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i]
		}
	}
	return nil
}

// undecidedIn reports whether ps holds id and it is undecided.
func undecidedIn(ps []Pattern, id string) bool {
	p := patternIn(ps, id)
	return p != nil && p.Decision == nil
}

// ownPatterns copies patterns handed in by an action, so later in-place edits never reach the caller's
// slice; each Hits is clipped, so the reducer's appends reallocate rather than write into the caller's array.
func ownPatterns(ps []Pattern, extra int) []Pattern {
	out := make([]Pattern, len(ps), len(ps)+extra)
	copy(out, ps)
	for i := range out {
		if out[i].Hits == nil {
			out[i].Hits = []string{}
		}
		out[i].Hits = slices.Clip(out[i].Hits)
	}
	return out
}

// alreadyIgnored reports whether the recurrence a judge run reports for id was already counted.
//
// One recurrence is counted as ignored once (protocol.md, "Differences from ContextSaver"). ContextSaver counts an ignored instruction
// on two paths: a row that repeats the signature after the decision's turn (settleWithRow), and a judge
// run whose finding cites a call after the decision (judge.done's recurred). One recurrence reaches both
// — its row lands, and the next run cites that row — so ContextSaver counted it twice. Both paths do the same
// two things: they close the decision (openedAtTurn nil) and bring the card back to the queue, where it
// waits until the person decides again (a new decision takes it off the queue and reopens it). So a sent
// pattern that is closed and queued has had its ignore counted since its last decision, and a recurrence
// reported now is the one already counted: the instruction was ignored once, not once per report. A
// recurrence after a decision that was credited (closed, not queued) or still open is counted, and so is
// one after the person decided again.
func alreadyIgnored(s *State, id string) bool {
	p := s.PatternByID(id)
	return p != nil && IsSent(p.Decision) && p.OpenedAtTurn == nil && slices.Contains(s.Cards, id)
}
