package judge

import (
	"github.com/saverd/saverd/state"
)

// AGENTS: the loops this session launched.
//
//	<name> | <id> | loops <n> | Σ<min>m | Σ<tok>k | edits <n> | turn <n>                one per workflow run
//	<alias> | <run> | <label> | <model> | <turns> | <min>m | <tok>k | edits <n> | checks <n> | reads <n> | <outcome> | <ended>
//	~ <run> | ×<loops> | Σ<min>m | Σ<tok>k                                             older loops, per run
//
// Runs come first, oldest first, at most agentRuns (the older ones as one `~ ×N more` line). Then the
// newest AgentsRows loops, oldest first, each under the alias the LEDGER names it by; the loops before
// them fold into one `~` line per run (`-` for loops no run launched), first seen first, at most agentFolds
// then `~ ×N more`. A loop's run is `-` when no workflow launched it, its label and outcome `-` when the
// journal gave none, its model the family word (`?` unknown), tok its new tokens (input, cache creation,
// output) in thousands, outcome `<n> <severity>` for each severity found (`0 findings` for a clean
// review) or `report <chars>ch`, ended `running` while it runs.
const (
	agentRuns  = 20 // run lines
	agentFolds = 20 // `~` lines for loops older than the window
)

// loopSum is a group of loops' count, time, tokens and edits.
type loopSum struct {
	loops  int
	ms     int64
	tokens int64
	edits  int
}

func (g *loopSum) add(l *state.Loop) {
	g.loops++
	g.ms += l.Ms
	g.tokens += state.LoopTokens(l)
	g.edits += l.Edits
}

func agentsBlock(s *state.State, aliases map[string]string) string {
	lines := runLinesOf(s)
	from := max(0, len(s.Loops)-state.AgentsRows)
	lines = append(lines, loopFoldLines(s.Loops[:from])...)
	for i := from; i < len(s.Loops); i++ {
		lines = append(lines, loopLine(&s.Loops[i], aliases))
	}
	return joinLines(lines)
}

func runLinesOf(s *state.State) []string {
	byRun := make(map[string]*loopSum, len(s.Runs))
	for i := range s.Runs {
		byRun[s.Runs[i].ID] = &loopSum{}
	}
	for i := range s.Loops {
		if l := &s.Loops[i]; l.Run != nil {
			if g := byRun[*l.Run]; g != nil {
				g.add(l)
			}
		}
	}
	from := max(0, len(s.Runs)-agentRuns)
	var lines []string
	if from > 0 {
		lines = append(lines, "~ ×"+inum(from)+" more")
	}
	for i := from; i < len(s.Runs); i++ {
		r := &s.Runs[i]
		g := byRun[r.ID]
		lines = append(lines, join(oneLine(r.Name, labelMax), cut(r.ID, runIDMax), "loops "+inum(g.loops),
			"Σ"+minutes(g.ms), "Σ"+ktok(g.tokens), "edits "+inum(g.edits), "turn "+inum(r.Turn)))
	}
	return lines
}

// loopFoldLines folds loops per run, first seen first.
func loopFoldLines(loops []state.Loop) []string {
	var order []string
	by := map[string]*loopSum{}
	for i := range loops {
		run := "-"
		if loops[i].Run != nil {
			run = cut(*loops[i].Run, runIDMax)
		}
		g := by[run]
		if g == nil {
			g = &loopSum{}
			by[run] = g
			order = append(order, run)
		}
		g.add(&loops[i])
	}
	shown := min(len(order), agentFolds)
	lines := make([]string, 0, shown+1)
	for _, run := range order[:shown] {
		g := by[run]
		lines = append(lines, join("~ "+run, "×"+inum(g.loops), "Σ"+minutes(g.ms), "Σ"+ktok(g.tokens)))
	}
	if more := len(order) - shown; more > 0 {
		lines = append(lines, "~ ×"+inum(more)+" more")
	}
	return lines
}

func loopLine(l *state.Loop, aliases map[string]string) string {
	run, label, ended := "-", "-", "running"
	if l.Run != nil {
		run = cut(*l.Run, runIDMax)
	}
	if l.Label != nil && *l.Label != "" {
		label = oneLine(*l.Label, labelMax)
	}
	if l.Ended != nil {
		ended = oneLine(string(*l.Ended), clsMax)
	}
	return join(cut(state.AliasOf(aliases, l.ID), aliasMax), run, label, oneLine(modelShort(l.Model), modelMax),
		inum(l.Turns), minutes(l.Ms), ktok(state.LoopTokens(l)), "edits "+inum(l.Edits), "checks "+inum(l.Checks),
		"reads "+inum(l.Reads), outcomeCell(l.Outcome), ended)
}

// outcomeCell is what one loop returned: `1 high 4 low`, `0 findings`, `report 5900ch`, or `-`.
func outcomeCell(o *state.Outcome) string {
	if o == nil {
		return "-"
	}
	switch o.Kind {
	case state.OutcomeReport:
		return "report " + inum(o.Chars) + "ch"
	case state.OutcomeFindings:
		out := ""
		for _, sev := range []struct {
			n    int
			name string
		}{{o.Critical, "critical"}, {o.High, "high"}, {o.Medium, "medium"}, {o.Low, "low"}} {
			if sev.n > 0 {
				if out != "" {
					out += " "
				}
				out += inum(sev.n) + " " + sev.name
			}
		}
		if out == "" {
			return "0 findings"
		}
		return out
	}
	return "-"
}
