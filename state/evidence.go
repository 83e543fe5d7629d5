package state

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Evidence: the arithmetic over rows, loops and handles that the views, the settlements and the judges
// share.
//
//   - AgentAliases names loops a1, a2, … in order of first appearance over the ledger's rows, then the
//     loops the rows never showed (their rows folded away, or none yet), oldest first. main is never
//     aliased. One table serves a whole draw or a whole judge run, so handles read back consistently.
//   - RowsOf is the rows a pattern's hits name, in ledger order; turn and agent handles name no row.
//   - Baseline is what one avoided repeat is worth: the median ms and median chars of the cited rows
//     (0, 0 with none). A median, not a mean, so one outlier run does not inflate every credit.
//   - FoldRows folds rows pushed past RowCap into one record per tool+key (count, Σms, Σchars, first and
//     last turn, the ask/recommended/err flag counts; cls and agent from the first row folded in), so
//     every total still counts them.
//   - SinksOf sorts time or context into named sinks by what ran (SinkLabel): tests, reads, searches,
//     edits, git, builds, installs, lint, format, typecheck, waits, shell, and the tool's name for the
//     rest. The total counts every row of the main loop and the agents' own rows, folded rows included;
//     Agent launch rows are listed apart and never added in, since they contain their loop's rows.
//   - SumOf is Σms and Σchars over rows.

// AgentAliases maps each loop's agent id to its alias, a1, a2, … in order of first appearance.
func AgentAliases(rows []Row, loops []Loop) map[string]string {
	aliases := make(map[string]string, len(loops))
	add := func(id string) {
		if id == MainAgent {
			return
		}
		if _, ok := aliases[id]; !ok {
			aliases[id] = "a" + strconv.Itoa(len(aliases)+1)
		}
	}
	for i := range rows {
		add(rows[i].Agent)
	}
	for i := range loops {
		add(loops[i].ID)
	}
	return aliases
}

// AliasOf is the alias of a loop id, else the id itself.
func AliasOf(aliases map[string]string, id string) string {
	if a, ok := aliases[id]; ok {
		return a
	}
	return id
}

// Sum is Σms and Σchars.
type Sum struct {
	Ms    int64
	Chars int64
}

// SumOf is Σms and Σchars over rows.
func SumOf(rows []Row) Sum {
	var s Sum
	for i := range rows {
		s.Ms += rows[i].Ms
		s.Chars += rows[i].Chars
	}
	return s
}

// RowsOf is the rows whose id is one of hits, in ledger order.
func RowsOf(s *State, hits []string) []Row {
	if len(hits) == 0 {
		return nil
	}
	var out []Row
	if len(hits) <= 8 {
		for i := range s.Rows {
			if slices.Contains(hits, s.Rows[i].ID) {
				out = append(out, s.Rows[i])
			}
		}
		return out
	}
	set := make(map[string]struct{}, len(hits))
	for _, h := range hits {
		set[h] = struct{}{}
	}
	for i := range s.Rows {
		if _, ok := set[s.Rows[i].ID]; ok {
			out = append(out, s.Rows[i])
		}
	}
	return out
}

// Worth is what one avoided repeat of a pattern is worth.
type Worth struct {
	Ms    float64
	Chars float64
}

// Baseline is the median ms and the median chars of the pattern's cited rows (0, 0 when none).
func Baseline(s *State, hits []string) Worth {
	rows := RowsOf(s, hits)
	if len(rows) == 0 {
		return Worth{}
	}
	ms := make([]float64, len(rows))
	chars := make([]float64, len(rows))
	for i := range rows {
		ms[i] = float64(rows[i].Ms)
		chars[i] = float64(rows[i].Chars)
	}
	return Worth{Ms: Median(ms), Chars: Median(chars)}
}

// FoldKey is the Folded map's key for a row: tool and key joined by a tab.
func FoldKey(tool, key string) string { return tool + "\t" + key }

// FoldRows folds rows into folded, one record per tool+key; it changes folded in place.
func FoldRows(folded map[string]Folded, rows []Row) { foldRows(folded, rows, nil, nil) }

// foldRows is FoldRows, telling t (when not nil) what each write replaces and o (when not nil), the
// index capFolded merges by, each record it makes or grows.
func foldRows(folded map[string]Folded, rows []Row, t *tracking, o *foldOrder) {
	for i := range rows {
		r := &rows[i]
		k := r.foldKey()
		f, ok := folded[k]
		t.wroteFolded(k, f, ok)
		if !ok {
			f = Folded{Tool: r.Tool, Key: r.Key, Cls: r.Cls, Agent: r.Agent, FirstTurn: r.Turn, LastTurn: r.Turn}
		}
		f.Count++
		f.Ms += r.Ms
		f.Chars += r.Chars
		f.FirstTurn = min(f.FirstTurn, r.Turn)
		f.LastTurn = max(f.LastTurn, r.Turn)
		if r.HasFlag("ask") {
			f.Flags.Ask++
		}
		if r.HasFlag("recommended") {
			f.Flags.Recommended++
		}
		if r.HasFlag("err") {
			f.Flags.Err++
		}
		folded[k] = f
		switch {
		case o == nil:
		case ok:
			o.grew(k, f)
		default:
			o.added(k, f)
		}
	}
	if o != nil {
		o.folded(folded)
	}
}

// Measure picks what a sink adds up: wall time or context.
type Measure int

// The two measures.
const (
	MeasureMs Measure = iota
	MeasureChars
)

// SinkLabel names the sink a call's cost goes to, by what it did.
func SinkLabel(tool string, cls CommandClass) string {
	switch cls {
	case ClassTest:
		return "tests"
	case ClassLint:
		return "lint"
	case ClassFormat:
		return "format"
	case ClassTypecheck:
		return "typecheck"
	case ClassBuild:
		return "builds"
	case ClassInstall:
		return "installs"
	case ClassGit:
		return "git"
	case ClassRead:
		return "reads"
	case ClassSearch:
		return "searches"
	}
	switch tool {
	case "Agent":
		return "agents"
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return "edits"
	case "AskUserQuestion":
		return "waits"
	case "Bash":
		return "shell"
	case "WebFetch", "WebSearch":
		return "web"
	}
	if strings.HasPrefix(tool, "mcp__") {
		return "mcp"
	}
	return strings.ToLower(tool)
}

// SinkReport is every named sink, largest first, and the Agent rows listed apart.
type SinkReport struct {
	Total int64
	Sinks []Sink // every named sink, largest first, then by label
	Apart Sink   // Agent launch rows: never added into Total
}

// SinkReportOf sorts rows and folded records into named sinks by measure.
func SinkReportOf(rows []Row, folded map[string]Folded, m Measure) SinkReport {
	type acc struct {
		amount int64
		count  int
	}
	by := map[string]*acc{}
	rep := SinkReport{Apart: Sink{Label: "agents"}}
	add := func(tool string, cls CommandClass, amount int64, count int) {
		if tool == "Agent" {
			rep.Apart.Amount += amount
			rep.Apart.Count += count
			return
		}
		rep.Total += amount
		label := SinkLabel(tool, cls)
		a := by[label]
		if a == nil {
			a = &acc{}
			by[label] = a
		}
		a.amount += amount
		a.count += count
	}
	for i := range rows {
		r := &rows[i]
		amount := r.Chars
		if m == MeasureMs {
			amount = r.Ms
		}
		add(r.Tool, r.Cls, amount, 1)
	}
	for _, f := range folded {
		amount := f.Chars
		if m == MeasureMs {
			amount = f.Ms
		}
		add(f.Tool, f.Cls, amount, f.Count)
	}
	rep.Sinks = make([]Sink, 0, len(by))
	for label, a := range by {
		rep.Sinks = append(rep.Sinks, Sink{Label: label, Amount: a.amount, Count: a.count})
	}
	sort.Slice(rep.Sinks, func(i, j int) bool {
		a, b := rep.Sinks[i], rep.Sinks[j]
		if a.Amount != b.Amount {
			return a.Amount > b.Amount
		}
		return a.Label < b.Label
	})
	return rep
}

// SinksOf is the total and the SinksShown largest named sinks (those with any amount).
func SinksOf(rows []Row, folded map[string]Folded, m Measure) Sinks {
	rep := SinkReportOf(rows, folded, m)
	shown := make([]Sink, 0, SinksShown)
	for _, s := range rep.Sinks {
		if len(shown) == SinksShown {
			break
		}
		if s.Amount > 0 {
			shown = append(shown, s)
		}
	}
	return Sinks{Total: rep.Total, Sinks: shown}
}

// LoopTokens is the new tokens a loop was billed: input, cache creation and output.
func LoopTokens(l *Loop) int64 { return l.Tokens.Input + l.Tokens.CacheCreate + l.Tokens.Output }

// TotalTokens sums every new (non-cache-read) token this session's turns reported, and its main loop's
// before this daemon joined it (Before).
func TotalTokens(s *State) int64 {
	n := s.Before.Input + s.Before.Output + s.Before.CacheCreate
	for i := range s.Turns {
		t := &s.Turns[i]
		n += t.Input + t.Output + t.CacheCreate
	}
	return n
}

// MeasuredCost is what cited handles measured: the tokens and wall time of every loop they name (a run's
// loops, each once) and of every cited turn.
func MeasuredCost(s *State, handles []string) Cost {
	var runs, agents []string
	var turns []int
	for _, h := range handles {
		switch {
		case strings.HasPrefix(h, "run:") && len(h) > 4:
			runs = append(runs, h[4:])
		case strings.HasPrefix(h, "agent:") && len(h) > 6:
			agents = append(agents, h[6:])
		case strings.HasPrefix(h, "turn:"):
			if n, ok := turnNumber(h[5:]); ok {
				turns = append(turns, n)
			}
		}
	}
	var c Cost
	for i := range s.Loops {
		l := &s.Loops[i]
		if slices.Contains(agents, l.ID) || (l.Run != nil && slices.Contains(runs, *l.Run)) {
			c.Tokens += LoopTokens(l)
			c.Ms += l.Ms
		}
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if slices.Contains(turns, t.Turn) {
			c.Tokens += t.Input + t.CacheCreate + t.Output
			c.Ms += t.Ms
		}
	}
	return c
}

// TurnHandle is the turn a `turn:<n>` handle names.
func TurnHandle(h string) (int, bool) {
	if !strings.HasPrefix(h, "turn:") {
		return 0, false
	}
	return turnNumber(h[5:])
}

// turnNumber reads the digits of a handle as ContextSaver's /^\d+$/ and Number() do.
func turnNumber(digits string) (int, bool) {
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	return n, true
}

// AgentHandle is the agent id (or alias) an `agent:<x>` handle names.
func AgentHandle(h string) (string, bool) {
	if strings.HasPrefix(h, "agent:") && len(h) > 6 {
		return h[6:], true
	}
	return "", false
}

// Sink is one named consumer (tests, reads, agents, git…); Amount in ms (time) or chars (context).
type Sink struct {
	Label  string `json:"label"`
	Amount int64  `json:"amount"`
	Count  int    `json:"count"`
}

// Sinks is a total over every ledger row of the main loop plus the agents' own rows (Agent launch rows
// excluded: they contain their loop's rows), and the SinksShown largest named.
type Sinks struct {
	Total int64  `json:"total"`
	Sinks []Sink `json:"sinks"`
}
