package view

import (
	"sort"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// `/saver debug`: the whole state in at most DebugMaxLines lines, in ContextSaver's words.

// DebugDump renders the state, and whether the load lane has reported yet (spoke), for `/saver debug`.
// It keeps ContextSaver's first DebugMaxLines entries; an entry that itself spans lines (an error text with a
// line break) is cut too, so the dump never exceeds DebugMaxLines lines.
func DebugDump(s *state.State, spoke bool) string {
	j := &s.Judge
	u := &s.Usage
	lines := []string{
		"ContextSaver · turn " + decimal(s.Turn) + " · seq " + decimal(s.Seq) + " · rows " + decimal(len(s.Rows)) +
			" · turns " + decimal(len(s.Turns)) + " · patterns " + decimal(len(s.Patterns)),
		"rows " + classCounts(s.Rows),
		"runs " + decimal(len(s.Runs)) + " · loops " + decimal(len(s.Loops)) + " · active " + decimal(len(state.ActiveRuns(s, ClockOf(s)))),
		sinkLine("time", "ms", sinksOf(s, state.MeasureMs)),
		sinkLine("context", "ch", sinksOf(s, state.MeasureChars)),
	}
	lines = append(lines, patternLines(s)...)
	cards := "cards " + decimal(len(s.Cards))
	if len(s.Cards) > 0 {
		cards += ": " + strings.Join(s.Cards, ", ")
	}
	written := "notes " + decimal(len(s.Notes)) + " · standing " + decimal(len(s.Standing)) + " · written " + decimal(len(s.Written))
	if len(s.Written) > 0 {
		written += ": " + strings.Join(s.Written, ", ")
	}
	share := "-"
	if p := judgeShare(s); p != nil {
		share = jstext.JSNumber(*p) + "%"
	}
	lines = append(lines, cards, written,
		"judge runs "+decimal(j.Runs)+" · spent "+decimal64(j.Spent)+" tokens ("+share+" of the session) · backoff "+decimal64(j.Backoff)+
			" · running "+strconv.FormatBool(j.Running)+" · lastAt "+decimal64(j.LastAtTokens)+" tokens / turn "+decimal(j.LastAtTurn)+
			" / row "+decimal(j.LastAtSeq)+" / "+decimal64(j.LastAtMs)+"ms · error "+orDash(j.Error)+" · focus "+oneLine(j.Focus),
		"judge time: "+oneLine(j.Time),
		"judge context: "+oneLine(j.Context),
		processDebugLine(s),
	)
	lines = append(lines, judgeRunLines(j.Last, "judge")...)
	lines = append(lines, judgeRunLines(s.Process.Last, "process")...)
	lines = append(lines, loadCheckLine(s, spoke),
		"usage "+orDashF(u.Percent)+"% · "+orDashI(u.Tokens)+" / "+decimal64(u.Window)+" tokens · compactAt "+orDashI(u.CompactAt)+
			" · toCompaction "+orDashI(state.TokensToCompaction(s))+" · turnsLeft "+orDashI(state.TurnsToCompaction(s))+
			" · session "+decimal64(state.TotalTokens(s))+" new",
		overheadLine(s.Overhead),
		compactionsLine(s.Compactions),
		"pane "+map[bool]string{true: "open", false: "closed"}[s.PaneOpen]+" · autoOpened "+strconv.FormatBool(s.AutoOpened)+
			" · columns "+orDashInt(s.Columns)+" · expanded "+orDash(s.Expanded)+" · steering "+orDash(s.Steering),
		"saved "+jstext.Duration(s.Saved.Ms)+" · ~"+jstext.JSNumber(state.PctOf(s.Saved.Chars, u.Window))+"% · "+jstext.JSNumber(s.Saved.Chars)+" chars",
	)
	if len(lines) > state.DebugMaxLines {
		lines = lines[:state.DebugMaxLines]
	}
	out := strings.Join(lines, "\n")
	if strings.Count(out, "\n") >= state.DebugMaxLines {
		cut := strings.SplitN(out, "\n", state.DebugMaxLines+1)
		out = strings.Join(cut[:state.DebugMaxLines], "\n")
	}
	return out
}

// ProcessLine is what `/saver` says of the process judge: its runs and their spend; nil before its first run.
func ProcessLine(s *state.State) *string {
	runs := s.Process.Runs
	if runs == 0 {
		return nil
	}
	plural := "s"
	if runs == 1 {
		plural = ""
	}
	return new("process " + decimal(runs) + " run" + plural + " · " + jstext.Kilo(float64(s.Process.Spent)) + " tokens")
}

// UsageLine is what one judge fork cost, one line: the same text `/saver debug` and the debug log print.
// ContextSaver's default label is "judge".
func UsageLine(u state.JudgeUsage, label string) string {
	return label + " usage: in " + decimal64(u.Input) + " · out " + decimal64(u.Output) + " · cache read " + decimal64(u.CacheRead) +
		" · cache create " + decimal64(u.CacheCreate)
}

// classCounts is the ledger's rows per command class, most first (first seen first on a tie).
func classCounts(rows []state.Row) string {
	var order []state.CommandClass
	counts := map[state.CommandClass]int{}
	for i := range rows {
		c := rows[i].Cls
		if _, ok := counts[c]; !ok {
			order = append(order, c)
		}
		counts[c]++
	}
	if len(order) == 0 {
		return "(none)"
	}
	sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = string(c) + "×" + decimal(counts[c])
	}
	return strings.Join(parts, " ")
}

// oneLine quotes a text on one line, its line breaks escaped and cut to 120 units; `-` for none.
func oneLine(text *string) string {
	if text == nil {
		return "-"
	}
	return `"` + jstext.Cut16(strings.ReplaceAll(*text, "\n", `\n`), 120) + `"`
}

func patternLine(p *state.Pattern) string {
	hits := p.Hits
	if len(hits) > 5 {
		hits = hits[:5]
	}
	return "  " + p.ID + " · hits " + decimal(len(p.Hits)) + " [" + strings.Join(hits, " ") + "] · " + orDashChoice(p.Decision) +
		" @ " + orDashInt(p.DecidedAtTurn) + " · previous " + orDashChoice(p.LastDecision) + " · ignored " + decimal(p.Ignored) +
		" · opened " + orDashInt(p.OpenedAtTurn) + " · sent " + oneLine(p.Instruction)
}

func patternLines(s *state.State) []string {
	n := min(len(s.Patterns), state.DebugMaxPatterns)
	out := make([]string, 0, n+1)
	for i := range s.Patterns[:n] {
		out = append(out, patternLine(&s.Patterns[i]))
	}
	if rest := len(s.Patterns) - n; rest > 0 {
		out = append(out, "  … "+decimal(rest)+" more patterns")
	}
	return out
}

// judgeRunLines is what the last run reported, and why anything it returned never reached the person.
func judgeRunLines(run *state.JudgeRun, label string) []string {
	if run == nil {
		return nil
	}
	lines := []string{label + " last: " + decimal(run.Returned) + " returned · " + decimal(run.Kept) + " kept · " + decimal(len(run.Dropped)) + " dropped"}
	for _, reason := range run.Dropped[:min(len(run.Dropped), state.DebugMaxDropped)] {
		lines = append(lines, "  "+reason)
	}
	if run.Usage != nil {
		lines = append(lines, UsageLine(*run.Usage, label))
	}
	return lines
}

// loadCheckLine is the audit a load owes a session it joined late: fired over the adopted rows, retried
// at every warm opportunity while it keeps coming back with nothing, never armed under the row floor.
func loadCheckLine(s *state.State, spoke bool) string {
	lane := "answered"
	switch {
	case s.PendingCheck:
		lane = "retrying"
	case s.Judge.Runs == 0:
		lane = "not armed"
	}
	said := "not yet reported"
	if spoke {
		said = "reported"
	}
	return "load check: " + lane + " · " + said
}

// sinkLine is where a budget went: the total and the largest sinks.
func sinkLine(label, unit string, budget *state.Sinks) string {
	if budget == nil {
		return label + " sinks: -"
	}
	parts := []string{decimal64(budget.Total) + unit + " total"}
	for _, s := range budget.Sinks {
		parts = append(parts, s.Label+" "+decimal64(s.Amount)+" ×"+decimal(s.Count))
	}
	return label + " sinks: " + strings.Join(parts, " · ")
}

// processDebugLine is the process judge's cadence and the asks it counts: how many, and how many read as
// pace, never what was typed.
func processDebugLine(s *state.State) string {
	p := &s.Process
	pace := 0
	for _, a := range s.Asks {
		if a.Pace {
			pace++
		}
	}
	return "process runs " + decimal(p.Runs) + " · spent " + decimal64(p.Spent) + " tokens · backoff " + decimal64(p.Backoff) +
		" · running " + strconv.FormatBool(p.Running) + " · lastAt turn " + decimal(p.LastAtTurn) + " / row " + decimal(p.LastAtSeq) +
		" / " + decimal64(p.LastAtMs) + "ms · error " + orDash(p.Error) + " · asks " + decimal(len(s.Asks)) + " · pace " + decimal(pace)
}

func overheadLine(o *state.Overhead) string {
	if o == nil {
		return "overhead -"
	}
	return "overhead memory " + decimal64(o.Memory) + " · mcp " + decimal64(o.MCP) + " · agents " + decimal64(o.Agents)
}

func compactionsLine(turns []int) string {
	if len(turns) == 0 {
		return "compactions none"
	}
	parts := make([]string, len(turns))
	for i, t := range turns {
		parts[i] = decimal(t)
	}
	return "compactions " + strings.Join(parts, ", ")
}

func decimal(n int) string     { return strconv.Itoa(n) }
func decimal64(n int64) string { return strconv.FormatInt(n, 10) }
func orDash(p *string) string {
	if p == nil {
		return "-"
	}
	return *p
}
func orDashChoice(p *state.Choice) string {
	if p == nil {
		return "-"
	}
	return string(*p)
}
func orDashInt(p *int) string {
	if p == nil {
		return "-"
	}
	return decimal(*p)
}
func orDashI(p *int64) string {
	if p == nil {
		return "-"
	}
	return decimal64(*p)
}
func orDashF(p *float64) string {
	if p == nil {
		return "-"
	}
	return jstext.JSNumber(*p)
}
