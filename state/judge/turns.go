package judge

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// TURNS: one line per completed turn of the main loop, then the facts line.
//
//	turn <n> | in <tokens> | out <tokens> | cacheCreate <tokens> | calls <n> | <ms>ms | answerChars <n>[ | aborted| error| refusal][ | idle <m>m]
//	facts | window <tokens> tokens | overhead memory <t> · mcp <t> · agents <t> tokens per turn | compactions at turn <n>, <n>
//
// A turn that ended otherwise than with an answer says how; `idle` is the wait before the next prompt,
// in whole minutes, when it was a minute or more. The newest turnRows turns print; older ones fold into
// one `~ ×N earlier turns` line with their sums. The facts line says `unknown` for what was not reported
// and names at most factCompactions compaction turns, the newest.
const (
	turnRows        = 100
	factCompactions = 20
	idleMinMs       = 60_000
)

func turnsBlock(s *state.State) string {
	from := max(0, len(s.Turns)-turnRows)
	lines := make([]string, 0, len(s.Turns)-from+2)
	if from > 0 {
		lines = append(lines, turnFoldLine(s.Turns[:from]))
	}
	for i := from; i < len(s.Turns); i++ {
		lines = append(lines, turnLine(&s.Turns[i]))
	}
	if len(lines) == 0 {
		lines = append(lines, none)
	}
	lines = append(lines, factsLine(s))
	return joinLines(lines)
}

func turnLine(t *state.TurnStat) string {
	line := join("turn "+inum(t.Turn), "in "+num(t.Input), "out "+num(t.Output), "cacheCreate "+num(t.CacheCreate),
		"calls "+inum(t.Calls), num(t.Ms)+"ms", "answerChars "+inum(t.AnswerChars))
	switch {
	case t.Aborted || t.Ended == state.EndAborted:
		line += " | aborted"
	case t.Ended == state.EndError:
		line += " | error"
	case t.Ended == state.EndRefusal:
		line += " | refusal"
	}
	if t.IdleMs >= idleMinMs {
		line += " | idle " + round(float64(t.IdleMs)/60_000) + "m"
	}
	return line
}

func turnFoldLine(turns []state.TurnStat) string {
	var in, out, cc, ms int64
	calls, answer := 0, 0
	for i := range turns {
		t := &turns[i]
		in += t.Input
		out += t.Output
		cc += t.CacheCreate
		ms += t.Ms
		calls += t.Calls
		answer += t.AnswerChars
	}
	return join("~ ×"+inum(len(turns))+" earlier turns", "in "+num(in), "out "+num(out), "cacheCreate "+num(cc),
		"calls "+inum(calls), num(ms)+"ms", "answerChars "+inum(answer))
}

func factsLine(s *state.State) string {
	window := "window unknown"
	if s.Usage.Window > 0 {
		window = "window " + num(s.Usage.Window) + " tokens"
	}
	overhead := "overhead unknown"
	if o := s.Overhead; o != nil {
		overhead = "overhead memory " + num(o.Memory) + " · mcp " + num(o.MCP) + " · agents " + num(o.Agents) + " tokens per turn"
	}
	compactions := "compactions none"
	if n := len(s.Compactions); n > 0 {
		from := max(0, n-factCompactions)
		turns := make([]string, 0, n-from)
		for _, t := range s.Compactions[from:] {
			turns = append(turns, inum(t))
		}
		compactions = "compactions at turn " + strings.Join(turns, ", ")
		if from > 0 {
			compactions += " (+" + inum(from) + " earlier)"
		}
	}
	return join("facts", window, overhead, compactions)
}
