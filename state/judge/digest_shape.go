package judge

import (
	"sort"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// SHAPE: one row per workflow run, one per phase, the direct agents, every role by model.

// roleOf is the role a loop plays: its label's first word (`review:C3-r1` → `review`), else its phase,
// else `agent`.
func roleOf(l *state.Loop) string {
	if l.Label != nil {
		if w := roleWord(*l.Label); w != "" {
			return strings.ToLower(w)
		}
	}
	if l.Phase != nil {
		return strings.ToLower(*l.Phase)
	}
	return "agent"
}

// tally is `name ×n` counts, largest first then by name, joined by ` · `.
func tally(names []string) string {
	counts := map[string]int{}
	var order []string
	for _, n := range names {
		if counts[n] == 0 {
			order = append(order, n)
		}
		counts[n]++
	}
	sort.SliceStable(order, func(i, j int) bool {
		if counts[order[i]] != counts[order[j]] {
			return counts[order[i]] > counts[order[j]]
		}
		return jstext.Less16(order[i], order[j])
	})
	parts := make([]string, len(order))
	for i, n := range order {
		parts[i] = n + " ×" + inum(counts[n])
	}
	return strings.Join(parts, " · ")
}

// outcomesCell is what a group of loops returned: severities summed across their reviews, reports counted.
func outcomesCell(loops []*state.Loop) string {
	var sev [4]int
	found, reports := 0, 0
	for _, l := range loops {
		if l.Outcome == nil {
			continue
		}
		switch l.Outcome.Kind {
		case state.OutcomeFindings:
			found++
			sev[0] += l.Outcome.Critical
			sev[1] += l.Outcome.High
			sev[2] += l.Outcome.Medium
			sev[3] += l.Outcome.Low
		case state.OutcomeReport:
			reports++
		}
	}
	var severities []string
	for i, name := range []string{"critical", "high", "medium", "low"} {
		if sev[i] > 0 {
			severities = append(severities, inum(sev[i])+" "+name)
		}
	}
	var parts []string
	switch {
	case len(severities) > 0:
		parts = append(parts, strings.Join(severities, " "))
	case found > 0:
		parts = append(parts, "0 findings")
	}
	if reports > 0 {
		parts = append(parts, "report ×"+inum(reports))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " · ")
}

func isMerge(r *state.Row) bool { return r.Cls == state.ClassGit && hasWord(r.Key, "merge") }

// mergeChecks counts the merges among rows, and the merges a check followed before the next merge.
func mergeChecks(rows []*state.Row) (merges, checked int) {
	sorted := rows
	if !sort.SliceIsSorted(rows, func(i, j int) bool { return rows[i].Seq < rows[j].Seq }) {
		sorted = append([]*state.Row(nil), rows...)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Seq < sorted[j].Seq })
	}
	open := false
	for _, r := range sorted {
		switch {
		case isMerge(r):
			merges++
			open = true
		case open && state.IsCheck(r):
			checked++
			open = false
		}
	}
	return merges, checked
}

// digest holds what the sections share: the session, the alias table, and each row's run.
type digest struct {
	s       *state.State
	aliases map[string]string
	rowRun  []string // the run each row belongs to, "" for none
	hasRun  []bool
}

func newDigest(s *state.State, aliases map[string]string) *digest {
	d := &digest{s: s, aliases: aliases, rowRun: make([]string, len(s.Rows)), hasRun: make([]bool, len(s.Rows))}
	loopRun := make(map[string]*string, len(s.Loops))
	for i := range s.Loops {
		if _, seen := loopRun[s.Loops[i].ID]; !seen {
			loopRun[s.Loops[i].ID] = s.Loops[i].Run
		}
	}
	// An agent's row belongs to its loop's run; a main-loop row to the newest run launched before it.
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Agent != state.MainAgent {
			if run := loopRun[r.Agent]; run != nil {
				d.rowRun[i], d.hasRun[i] = *run, true
			}
			continue
		}
		for j := len(s.Runs) - 1; j >= 0; j-- {
			if s.Runs[j].Seq <= r.Seq {
				d.rowRun[i], d.hasRun[i] = s.Runs[j].ID, true
				break
			}
		}
	}
	return d
}

func (d *digest) handle(l *state.Loop) string { return "agent:" + state.AliasOf(d.aliases, l.ID) }

func sumLoops(loops []*state.Loop) (ms, tokens int64, edits int) {
	for _, l := range loops {
		ms += l.Ms
		tokens += state.LoopTokens(l)
		edits += l.Edits
	}
	return ms, tokens, edits
}

// phaseLine is one declared (or seen) phase of a run: its loops, models, time, tokens, edits, outcomes.
func (d *digest) phaseLine(phase string, loops []*state.Loop) string {
	models := make([]string, len(loops))
	handles := make([]string, len(loops))
	for i, l := range loops {
		models[i] = modelShort(l.Model)
		handles[i] = d.handle(l)
	}
	ms, tokens, edits := sumLoops(loops)
	return join("  "+phase, "×"+inum(len(loops)), orDash(tally(models)), minutes(ms), ktok(tokens)+" tok",
		"edits "+inum(edits), outcomesCell(loops), orDash(strings.Join(handles, " ")))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func phaseOf(l *state.Loop) string {
	if l.Phase == nil {
		return "-"
	}
	return *l.Phase
}

func (d *digest) runLines(run *state.Run) []string {
	s := d.s
	var loops []*state.Loop
	for i := range s.Loops {
		if l := &s.Loops[i]; l.Run != nil && *l.Run == run.ID {
			loops = append(loops, l)
		}
	}
	var rows []*state.Row
	for i := range s.Rows {
		if d.hasRun[i] && d.rowRun[i] == run.ID {
			rows = append(rows, &s.Rows[i])
		}
	}
	merges, checked := mergeChecks(rows)
	phases := append([]string{}, run.Phases...)
	for _, l := range loops {
		phases = append(phases, phaseOf(l))
	}
	phases = state.Unique(phases)
	declared := "(none declared)"
	if len(run.Phases) > 0 {
		declared = strings.Join(run.Phases, " → ")
	}
	ms, tokens, edits := sumLoops(loops)
	lines := []string{join("run:"+run.ID, run.Name, "phases "+declared, "loops "+inum(len(loops)), "Σ"+minutes(ms),
		"Σ"+ktok(tokens)+" tok", "edits "+inum(edits), "merges "+inum(merges)+" · checks after "+inum(checked), "turn "+inum(run.Turn))}
	for _, p := range phases {
		var in []*state.Loop
		for _, l := range loops {
			if phaseOf(l) == p {
				in = append(in, l)
			}
		}
		lines = append(lines, d.phaseLine(p, in))
	}
	return lines
}

func (d *digest) directLine(l *state.Loop) string {
	label, ended := "-", "running"
	if l.Label != nil {
		label = *l.Label
	}
	if l.Ended != nil {
		ended = string(*l.Ended)
	}
	return join("  "+d.handle(l), label, modelShort(l.Model), minutes(l.Ms), ktok(state.LoopTokens(l))+" tok",
		"calls "+inum(l.Calls), "edits "+inum(l.Edits), ended)
}

func (d *digest) shapeLines() []string {
	s := d.s
	var lines []string
	for i := range s.Runs {
		lines = append(lines, d.runLines(&s.Runs[i])...)
	}
	runs := make(map[string]bool, len(s.Runs))
	for i := range s.Runs {
		runs[s.Runs[i].ID] = true
	}
	var direct []*state.Loop
	for i := range s.Loops {
		if l := &s.Loops[i]; l.Run == nil || !runs[*l.Run] {
			direct = append(direct, l)
		}
	}
	if len(direct) > 0 {
		lines = append(lines, "direct agents: ×"+inum(len(direct)))
		for _, l := range direct {
			lines = append(lines, d.directLine(l))
		}
	}
	roles := make([]string, len(s.Loops))
	for i := range s.Loops {
		roles[i] = roleOf(&s.Loops[i]) + " " + modelShort(s.Loops[i].Model)
	}
	t := tally(roles)
	if t == "" {
		t = "(no agents)"
	}
	return append(lines, "roles × model: "+t)
}
