package view

import (
	"sort"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// BuildPane is everything the pane renders: header, wasters, decisions and the rules on offer. It only
// reads s. One alias table serves the whole draw: the naming is the ledger's, not a card's, and the pane
// redraws on every ledger row and every keystroke in the Fix… field.
func BuildPane(s *state.State, artifacts []rules.Artifact) PaneModel {
	aliases := state.AgentAliases(s.Rows, s.Loops)
	cards, numbers := queued(s)
	decided := decidedPatterns(s)
	find := rowFinder(s, append(append([]*state.Pattern(nil), cards...), decided...))
	if artifacts == nil {
		artifacts = []rules.Artifact{}
	}
	return PaneModel{
		Header:     HeaderOf(s),
		Wasters:    wastersOf(s, cards, numbers, aliases, find),
		Expanded:   state.CopyStr(s.Expanded),
		Steering:   state.CopyStr(s.Steering),
		SteerDraft: state.CopyStr(s.SteerDraft),
		Decided:    decidedOf(s, decided, find),
		Artifacts:  artifacts,
	}
}

// wastersOf is the open cards in the order of their numbers, each with its number, so `/saver fix 2`
// names the card the person is looking at, and keeps naming it while it is open.
func wastersOf(s *state.State, cards []*state.Pattern, numbers []int, aliases map[string]string, find citedRows) []Card {
	out := make([]Card, len(cards))
	for i, p := range cards {
		out[i] = cardWith(p, s, numbers[i], aliases, find(p.Hits))
	}
	return out
}

// decidedPatterns is every decided pattern, in registry order.
func decidedPatterns(s *state.State) []*state.Pattern {
	var decided []*state.Pattern
	for i := range s.Patterns {
		if s.Patterns[i].Decision != nil {
			decided = append(decided, &s.Patterns[i])
		}
	}
	return decided
}

// decidedOf is the decided rows, newest decision first.
func decidedOf(s *state.State, decided []*state.Pattern, find citedRows) []DecidedRow {
	turnOf := func(p *state.Pattern) int {
		if p.DecidedAtTurn == nil {
			return 0
		}
		return *p.DecidedAtTurn
	}
	sort.SliceStable(decided, func(i, j int) bool { return turnOf(decided[i]) > turnOf(decided[j]) })
	out := make([]DecidedRow, len(decided))
	for i, p := range decided {
		out[i] = decidedRowOf(s, p, find)
	}
	return out
}

// decidedRowOf is one decision as the decided list draws it. Its figure is what one avoided repeat is
// worth: a projection until the instruction settled (nothing ignored it and nothing is still in flight),
// so the drawing can say `per repeat` before it says `saved`. What Fix sends is the kind and the fix the
// row already carries; only a note of the person's own is news.
func decidedRowOf(s *state.State, p *state.Pattern, find citedRows) DecidedRow {
	sent := state.IsSent(p.Decision)
	row := DecidedRow{
		PatternID: p.ID,
		Choice:    *p.Decision,
		Kind:      p.Kind,
		Settled:   sent && p.OpenedAtTurn == nil && p.Ignored == 0,
		Ignored:   p.Ignored,
		Sent:      p.Sent,
	}
	if sent {
		row.SavedPct = new(state.PctOf(baselineOf(find(p.Hits)).Chars, s.Usage.Window))
	}
	if *p.Decision == state.FixWithNote && p.Instruction != nil && jstext.CollapseWs(*p.Instruction) != jstext.CollapseWs(p.Alternative) {
		row.Instruction = new(*p.Instruction)
	}
	return row
}

// baselineOf is Baseline over rows already found: the median ms and median chars (0, 0 with none).
func baselineOf(rows []*state.Row) state.Worth {
	if len(rows) == 0 {
		return state.Worth{}
	}
	ms := make([]float64, len(rows))
	chars := make([]float64, len(rows))
	for i, r := range rows {
		ms[i] = float64(r.Ms)
		chars[i] = float64(r.Chars)
	}
	return state.Worth{Ms: state.Median(ms), Chars: state.Median(chars)}
}
