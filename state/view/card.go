package view

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// A waster card: the behaviour, its stats line, the fix, and the receipts behind `i`.

// citedRows is the rows a pattern's hits name, in ledger order (RowsOf), as one draw looks them up.
type citedRows func(hits []string) []*state.Row

// rowFinder is a citedRows for one draw over the given patterns: the ledger is scanned once for every
// id their hits name, so each card then costs its hits rather than the ledger. A ledger holding a
// wanted id twice is read by RowsOf, which keeps both.
func rowFinder(s *state.State, patterns []*state.Pattern) citedRows {
	if at, ok := indexedRows(s); ok {
		return at
	}
	n := 0
	for _, p := range patterns {
		n += len(p.Hits)
	}
	if n == 0 {
		return func([]string) []*state.Row { return nil }
	}
	want := make(map[string]int, n)
	for _, p := range patterns {
		for _, h := range p.Hits {
			want[h] = -1
		}
	}
	for i := range s.Rows {
		at, ok := want[s.Rows[i].ID]
		if !ok {
			continue
		}
		if at >= 0 {
			return func(hits []string) []*state.Row { return scanRows(s, hits) }
		}
		want[s.Rows[i].ID] = i
	}
	return func(hits []string) []*state.Row {
		return rowsAt(s, hits, func(h string) int {
			if i, ok := want[h]; ok {
				return i
			}
			return -1
		})
	}
}

// indexedRows is a citedRows over the reducer's own row index (State.RowPositions), when s holds a
// valid one: no scan of the ledger at all.
func indexedRows(s *state.State) (citedRows, bool) {
	positions, ok := s.RowPositions()
	if !ok {
		return nil, false
	}
	return func(hits []string) []*state.Row { return rowsAt(s, hits, positions.Of) }, true
}

// rowsAt is the rows at the positions hits name (-1: not in the ledger), each once, in ledger order.
func rowsAt(s *state.State, hits []string, position func(string) int) []*state.Row {
	var idx []int
	for _, h := range hits {
		if i := position(h); i >= 0 && !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	sort.Ints(idx)
	out := make([]*state.Row, len(idx))
	for k, i := range idx {
		out[k] = &s.Rows[i]
	}
	return out
}

// scanRows is RowsOf as pointers into the ledger: every row whose id is one of hits, in ledger order.
func scanRows(s *state.State, hits []string) []*state.Row {
	var out []*state.Row
	for i := range s.Rows {
		if slices.Contains(hits, s.Rows[i].ID) {
			out = append(out, &s.Rows[i])
		}
	}
	return out
}

// sumRows is Σms and Σchars over rows (SumOf, over pointers).
func sumRows(rows []*state.Row) state.Sum {
	var sum state.Sum
	for _, r := range rows {
		sum.Ms += r.Ms
		sum.Chars += r.Chars
	}
	return sum
}

// queued is the patterns the open cards name, by their numbers (state.Numbered), with those numbers; an
// id with no pattern is skipped.
func queued(s *state.State) ([]*state.Pattern, []int) {
	numbered := state.Numbered(s)
	out := make([]*state.Pattern, 0, len(s.Cards))
	numbers := make([]int, 0, len(s.Cards))
	for i, id := range numbered {
		if p := s.PatternByID(id); id != "" && p != nil {
			out = append(out, p)
			numbers = append(numbers, i+1)
		}
	}
	return out, numbers
}

// agentOfHandle is the loop id an `agent:<id>` handle names (ContextSaver's /^agent:(.+)$/: no line break).
func agentOfHandle(h string) (string, bool) {
	id, ok := strings.CutPrefix(h, "agent:")
	if !ok || id == "" || strings.ContainsAny(id, "\n\r\u2028\u2029") {
		return "", false
	}
	return id, true
}

// cited is what a pattern's hits name: ledger rows (in ledger order), loops and completed turns.
type cited struct {
	rows  []*state.Row
	loops []*state.Loop
	turns []*state.TurnStat
}

// citedOf is what p cites, its rows already found.
func citedOf(p *state.Pattern, s *state.State, rows []*state.Row) cited {
	return cited{rows: rows, loops: loopsCited(p, s), turns: turnsCitedStats(p, s)}
}

// loopsCited is the loops the pattern's agent handles name, one per handle.
func loopsCited(p *state.Pattern, s *state.State) []*state.Loop {
	var out []*state.Loop
	for _, h := range p.Hits {
		if id, ok := agentOfHandle(h); ok {
			if l := s.LoopByID(id); l != nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// turnsCitedStats is the completed turns the pattern's turn handles name.
func turnsCitedStats(p *state.Pattern, s *state.State) []*state.TurnStat {
	var out []*state.TurnStat
	for _, h := range p.Hits {
		n, ok := state.TurnHandle(h)
		if !ok {
			continue
		}
		for i := range s.Turns {
			if s.Turns[i].Turn == n {
				out = append(out, &s.Turns[i])
				break
			}
		}
	}
	return out
}

// statsOf is a habit card's stats line: hits, context share, wall time and the turns it spans. Zero
// segments are dropped whole: turn handles and rebuilt rows carry no duration, and `0s` would claim a
// suite that ran for minutes cost nothing. One turn is not a range: 'turns 1–1' reads as a bug.
func statsOf(p *state.Pattern, s *state.State, c cited) string {
	cost := sumRows(c.rows)
	parts := []string{strconv.Itoa(len(p.Hits)) + "×"}
	if pct := state.PctOf(float64(cost.Chars), s.Usage.Window); pct > 0 {
		parts = append(parts, "~"+jstext.JSNumber(pct)+"% of context")
	}
	if cost.Ms > 0 {
		parts = append(parts, jstext.Duration(float64(cost.Ms)))
	}
	first, last, any := 0, 0, false
	see := func(t int) {
		if !any {
			first, last, any = t, t, true
			return
		}
		first, last = min(first, t), max(last, t)
	}
	for _, r := range c.rows {
		see(r.Turn)
	}
	for _, h := range p.Hits {
		if n, ok := state.TurnHandle(h); ok {
			see(n)
		}
	}
	for _, l := range c.loops {
		see(l.FirstTurn)
	}
	if any {
		if first == last {
			parts = append(parts, "turn "+strconv.Itoa(first))
		} else {
			parts = append(parts, "turns "+strconv.Itoa(first)+"–"+strconv.Itoa(last))
		}
	}
	return strings.Join(parts, " · ")
}

// whatRan is what ran, in the words the person typed or read: the command, the file, or the tool and
// its key.
func whatRan(r *state.Row) string {
	if r.Tool == "Bash" {
		if rest, ok := strings.CutPrefix(r.Key, string(r.Cls)+":"); ok {
			return rest
		}
		return r.Key
	}
	if state.IsFileTool(r.Tool) {
		return withoutReadRange(r.Key)
	}
	return r.Tool + " " + r.Key
}

// withoutReadRange drops the `:offset-limit` slice normalize appends to a Read key (/:\d*-\d*$/): the
// path is what the details name.
func withoutReadRange(key string) string {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return key
	}
	rest := key[i+1:]
	dash := strings.IndexByte(rest, '-')
	if dash < 0 || !allDigits(rest[:dash]) || !allDigits(rest[dash+1:]) {
		return key
	}
	return key[:i]
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// evidenceOf is the card's receipts, newest first, at most CardEvidence: cited calls (a loop named only
// when it was not the main one), cited loops, cited turns. Reversed first, so two calls inside one turn
// also read newest first once the stable sort has run.
func evidenceOf(c cited, aliases map[string]string) []Evidence {
	rows, loops, turns := c.rows, c.loops, c.turns
	out := make([]Evidence, 0, len(rows)+len(loops)+len(turns))
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		var agent *string
		if r.Agent != state.MainAgent {
			agent = new(state.AliasOf(aliases, r.Agent))
		}
		out = append(out, Evidence{Turn: r.Turn, What: whatRan(r), Agent: agent, Ms: r.Ms, Chars: r.Chars, Head: r.Head})
	}
	for i := len(loops) - 1; i >= 0; i-- {
		out = append(out, citedLoop(loops[i], aliases))
	}
	for _, t := range turns {
		out = append(out, Evidence{Turn: t.Turn, What: state.NoCalls, Ms: 0, Chars: int64(t.AnswerChars), Head: t.AnswerHead})
	}
	slices.SortStableFunc(out, func(a, b Evidence) int { return b.Turn - a.Turn })
	if len(out) > state.CardEvidence {
		out = out[:state.CardEvidence]
	}
	return out
}

// citedLoop is a cited loop quoted as one line of evidence: its stage and model, dated by the turn that
// launched it.
func citedLoop(l *state.Loop, aliases map[string]string) Evidence {
	label, model := "agent", "?"
	if l.Label != nil {
		label = *l.Label
	}
	if l.Model != nil {
		model = *l.Model
	}
	ktok := jstext.Round(float64(state.LoopTokens(l)) / 1000)
	return Evidence{
		Turn:  l.FirstTurn,
		What:  label + " · " + model,
		Agent: new(state.AliasOf(aliases, l.ID)),
		Ms:    l.Ms,
		Head:  jstext.JSNumber(ktok) + "k tokens · " + strconv.Itoa(l.Edits) + " edits",
	}
}

// totalOf is the card's total. A pattern with no row in hand cites loops or turns, not calls: it counts
// them, and its context cost is the judge's per-turn estimate. The unit is stated here, so the drawing
// never has to guess it back.
func totalOf(p *state.Pattern, c cited) CardTotal {
	if len(c.rows) > 0 {
		sum := sumRows(c.rows)
		return CardTotal{Unit: "calls", Calls: len(c.rows), Ms: float64(sum.Ms), Chars: float64(sum.Chars)}
	}
	var chars float64
	if p.EstTokensPerTurn != nil {
		chars = *p.EstTokensPerTurn * 4
	}
	if len(c.loops) > 0 {
		var ms int64
		for _, l := range c.loops {
			ms += l.Ms
		}
		return CardTotal{Unit: "agents", Calls: len(c.loops), Ms: float64(ms), Chars: chars}
	}
	return CardTotal{Unit: "turns", Calls: len(c.turns), Ms: 0, Chars: chars}
}

// costSoFar is a process card's cost so far: the newest run's claim, clamped to its cited handles;
// what they measured when none is held.
func costSoFar(s *state.State, p *state.Pattern) string {
	var cost state.Cost
	if p.Cost != nil {
		cost = *p.Cost
	} else {
		cost = state.MeasuredCost(s, p.Hits)
	}
	return jstext.Duration(float64(cost.Ms)) + " · " + jstext.Kilo(float64(cost.Tokens)) + " tokens"
}

// CardOf is the waster card in seat n for a pattern, from the evidence it cites and the ledger's loop
// aliases (AgentAliases).
func CardOf(p *state.Pattern, s *state.State, n int, aliases map[string]string) Card {
	return cardWith(p, s, n, aliases, scanRows(s, p.Hits))
}

func cardWith(p *state.Pattern, s *state.State, n int, aliases map[string]string, rows []*state.Row) Card {
	kind := p.Kind
	if p.Ignored > 0 {
		// The agent went back to the habit after a fix: "ignored" is the person's own choice (Ignore).
		kind = "relapsed · " + p.Kind
	}
	c := citedOf(p, s, rows)
	var stats string
	if p.Lean == nil {
		stats = statsOf(p, s, c)
	} else {
		stats = costSoFar(s, p)
	}
	return Card{
		PatternID: p.ID,
		N:         n,
		Category:  p.Category,
		Kind:      kind,
		Stats:     stats,
		Why:       p.Why,
		Fix:       p.Alternative,
		Lean:      state.CopyStr(p.Lean),
		Total:     totalOf(p, c),
		Evidence:  evidenceOf(c, aliases),
	}
}
