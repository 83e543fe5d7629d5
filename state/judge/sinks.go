package judge

import (
	"sort"

	"github.com/saverd/saverd/state"
)

// TIME and CONTEXT: where the wall-clock and the context went, one block per measure (state.SinkReportOf).
//
//	total | ×<rows> | Σ<amount><unit>
//	<label> | ×<count> | Σ<amount><unit> | <share>%     the sinkLines largest named sinks with any amount
//	agents | ×<count> | Σ<amount><unit> | apart         the Agent launch rows, never added into the total
//	r<seq> | <tool> | <key> | Σ<amount><unit>           the five largest rows
//
// The total and the sinks count the whole session, folded rows included; share is of the total, rounded
// to a whole percent. The five largest rows are taken from the LEDGER's window, so every id printed
// here can be cited; an older giant is in the sinks, STATS and the `~` lines.
const (
	sinkLines = 8 // named sinks per block
	topRows   = 5 // largest rows per block
)

func sinksBlock(s *state.State, m state.Measure, idx []int) string {
	unit := "ms"
	if m == state.MeasureChars {
		unit = "chars"
	}
	rep := state.SinkReportOf(s.Rows, s.Folded, m)
	counted := 0
	for _, k := range rep.Sinks {
		counted += k.Count
	}
	if counted == 0 && rep.Apart.Count == 0 {
		return none
	}
	lines := []string{join("total", "×"+inum(counted), "Σ"+num(rep.Total)+unit)}
	shown := 0
	for _, k := range rep.Sinks {
		if shown == sinkLines || k.Amount <= 0 {
			break
		}
		shown++
		lines = append(lines, join(cut(k.Label, toolMax), "×"+inum(k.Count), "Σ"+num(k.Amount)+unit, share(k.Amount, rep.Total)))
	}
	if rep.Apart.Count > 0 {
		lines = append(lines, join(rep.Apart.Label, "×"+inum(rep.Apart.Count), "Σ"+num(rep.Apart.Amount)+unit, "apart"))
	}
	for _, at := range largest(s.Rows, idx, m) {
		r := &s.Rows[at]
		lines = append(lines, join("r"+inum(r.Seq), cut(r.Tool, toolMax), cut(r.Key, state.KeyMax), "Σ"+num(amountOf(r, m))+unit))
	}
	return joinLines(lines)
}

// share is part of total as a whole percent.
func share(part, total int64) string {
	if total <= 0 {
		return "0%"
	}
	return round(float64(part)*100/float64(total)) + "%"
}

func amountOf(r *state.Row, m state.Measure) int64 {
	if m == state.MeasureMs {
		return r.Ms
	}
	return r.Chars
}

// largest is the topRows rows of the window with the largest amount (none of zero), largest first, the
// older first on a tie.
func largest(rows []state.Row, idx []int, m state.Measure) []int {
	out := make([]int, 0, len(idx))
	for _, at := range idx {
		if amountOf(&rows[at], m) > 0 {
			out = append(out, at)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return amountOf(&rows[out[i]], m) > amountOf(&rows[out[j]], m) })
	return out[:min(len(out), topRows)]
}
