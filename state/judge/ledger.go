package judge

import (
	"sort"
	"strings"

	"github.com/saverd/saverd/state"
)

// LEDGER: `r<seq> | tool | key | cls | agent | turn | ms | chars | flags | paths`, oldest first.
//
// The window is the newest JudgeLedgerRows rows, taken newest first, with at most JudgeAgentRows rows of
// any one agent loop (the main loop unlimited), so a busy workflow cannot push the main loop's rows out;
// those rows, and nothing else, are citable (CitableRows), so every `r<seq>` the prompt prints anywhere
// is one the reply may cite. Every other row — older than the window, or past its loop's share — is
// folded with state.Folded into `~ | tool | key | ×count | Σchars` lines, printed before the full rows
// (they are older), the FoldLines largest by characters first and the rest as one `~ ×N more` line (N
// fold lines left out).
//
// Cells: ms, chars and turn are bare numbers; agent is the loop's alias (`main` for the main loop); flags
// are the row's own flags in ledger order, then `+adds/-dels` for an edit that counted lines, then
// `agent=<type>/<model>/<status>/<tokens>tok/<edits>edits/<promptChars>pch` for an Agent row (model
// the family word of the resolved model, else of the requested one; `?` for what the host did not
// report), space-separated, `-` when none; paths are the paths the call changed, comma-separated, at most
// three then `(+N more)`, `-` when none.

// citable is the indexes into s.Rows of the rows the LEDGER prints in full, oldest first.
func citable(s *state.State) []int {
	per := map[string]int{}
	idx := make([]int, 0, state.JudgeLedgerRows)
	for i := len(s.Rows) - 1; i >= 0 && len(idx) < state.JudgeLedgerRows; i-- {
		if agent := s.Rows[i].Agent; agent != state.MainAgent {
			if per[agent] >= state.JudgeAgentRows {
				continue
			}
			per[agent]++
		}
		idx = append(idx, i)
	}
	for i, j := 0, len(idx)-1; i < j; i, j = i+1, j-1 {
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx
}

// CitableRows is the rows the LEDGER prints in full, oldest first: the only rows a reply may cite.
func CitableRows(s *state.State) []state.Row {
	idx := citable(s)
	out := make([]state.Row, len(idx))
	for i, at := range idx {
		out[i] = s.Rows[at]
	}
	return out
}

// ledgerBlock renders the LEDGER over the citable window idx.
func ledgerBlock(s *state.State, aliases map[string]string, idx []int) string {
	var b strings.Builder
	b.Grow(len(idx) * 120)
	lines := 0
	for _, l := range foldLines(s, idx) {
		writeLine(&b, &lines, l)
	}
	for _, at := range idx {
		writeLine(&b, &lines, rowLine(&s.Rows[at], aliases))
	}
	if lines == 0 {
		return none
	}
	return b.String()
}

// none is what an empty block prints.
const none = "(none)"

func writeLine(b *strings.Builder, lines *int, line string) {
	if *lines > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(escaped(line))
	*lines++
}

// rowLine is one full LEDGER row.
func rowLine(r *state.Row, aliases map[string]string) string {
	return join(
		"r"+inum(r.Seq), cut(r.Tool, toolMax), cut(r.Key, state.KeyMax), cut(string(r.Cls), clsMax),
		cut(state.AliasOf(aliases, r.Agent), aliasMax), inum(r.Turn), num(r.Ms), num(r.Chars),
		flagsCell(r), pathsCell(r.Paths),
	)
}

// join is cells as one ` | `-separated line.
func join(cells ...string) string { return strings.Join(cells, " | ") }

// flagsCell is the row's flags, its `+adds/-dels` and its `agent=` flag, or `-`.
func flagsCell(r *state.Row) string {
	parts := make([]string, 0, len(r.Flags)+2)
	parts = append(parts, r.Flags...)
	if r.Lines != nil {
		parts = append(parts, "+"+num(r.Lines.Add)+"/-"+num(r.Lines.Del))
	}
	if r.Launch != nil {
		parts = append(parts, agentFlag(r.Launch))
	}
	if len(parts) == 0 {
		return "-"
	}
	return oneLine(strings.Join(parts, " "), flagsMax)
}

// agentFlag is `agent=<type>/<model>/<status>/<tokens>tok/<edits>edits/<promptChars>pch`.
func agentFlag(sp *state.Launch) string {
	model := sp.Resolved
	if model == nil {
		model = sp.Requested
	}
	status := "?"
	if sp.Status != nil {
		status = oneLine(*sp.Status, modelMax)
	}
	return "agent=" + oneLine(sp.Type, typeMax) + "/" + oneLine(modelShort(model), modelMax) + "/" + status +
		"/" + optNum(sp.Tokens) + "tok/" + optNum(sp.Edits) + "edits/" + inum(sp.PromptChars) + "pch"
}

// optNum is a count the host may not have reported: `?` then.
func optNum(f *float64) string {
	if f == nil {
		return "?"
	}
	return jsNum(*f)
}

// pathsCell is up to pathsShow paths, then `(+N more)`; `-` when the call changed none.
func pathsCell(paths []string) string {
	if len(paths) == 0 {
		return "-"
	}
	shown := min(len(paths), pathsShow)
	cells := make([]string, shown)
	for i := range shown {
		cells[i] = oneLine(paths[i], pathMax)
	}
	out := strings.Join(cells, ", ")
	if more := len(paths) - shown; more > 0 {
		out += " (+" + inum(more) + " more)"
	}
	return out
}

// foldLines is the `~` lines: every row outside the window folded with state.Folded, the FoldLines
// largest by characters, then `~ ×N more`.
func foldLines(s *state.State, idx []int) []string {
	all := make([]state.Folded, 0, len(s.Folded)+64)
	at := make(map[callKey]int, len(s.Folded)+64)
	for _, f := range s.Folded {
		at[callKey{f.Tool, f.Key}] = len(all)
		all = append(all, f)
	}
	// The rows outside the window, folded as state.FoldRows folds them (only count and Σchars print),
	// under a struct key so no row costs a concatenation.
	j := 0
	for i := range s.Rows {
		if j < len(idx) && idx[j] == i {
			j++
			continue
		}
		r := &s.Rows[i]
		k := callKey{r.Tool, r.Key}
		n, ok := at[k]
		if !ok {
			n = len(all)
			at[k] = n
			all = append(all, state.Folded{Tool: r.Tool, Key: r.Key})
		}
		all[n].Count++
		all[n].Ms += r.Ms
		all[n].Chars += r.Chars
	}
	if len(all) == 0 {
		return nil
	}
	sortFolded(all)
	shown := min(len(all), state.FoldLines)
	lines := make([]string, 0, shown+1)
	for i := range shown {
		f := &all[i]
		lines = append(lines, join("~", cut(f.Tool, toolMax), cut(f.Key, state.KeyMax), "×"+inum(f.Count), "Σ"+num(f.Chars)+"chars"))
	}
	if more := len(all) - shown; more > 0 {
		lines = append(lines, "~ ×"+inum(more)+" more")
	}
	return lines
}

// sortFolded orders fold records largest by characters first, then by count, tool and key.
func sortFolded(all []state.Folded) {
	sort.Slice(all, func(i, j int) bool {
		a, b := &all[i], &all[j]
		if a.Chars != b.Chars {
			return a.Chars > b.Chars
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Key < b.Key
	})
}
