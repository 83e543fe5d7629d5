package judge

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// Aliases names this session's loops the way one judge run sees them: built once before the prompt,
// handed again to ParseReply when the reply comes back.
func Aliases(s *state.State) map[string]string { return state.AgentAliases(s.Rows, s.Loops) }

// BuildPrompt fills the judge prompt with this session's evidence blocks; aliases is the naming AGENTS
// and LEDGER print, so the caller can hand the same table to ParseReply. A nil table is Aliases(s).
func BuildPrompt(s *state.State, aliases map[string]string) string {
	if aliases == nil {
		aliases = Aliases(s)
	}
	idx := citable(s)
	return fill(judgePrompt, map[string]string{
		"KNOWN_PATTERNS": knownPatternsBlock(s),
		"DECISIONS":      decisionsBlock(s),
		"STATS":          statsBlock(s, aliases),
		"TIME":           sinksBlock(s, state.MeasureMs, idx),
		"CONTEXT":        sinksBlock(s, state.MeasureChars, idx),
		"AGENTS":         agentsBlock(s, aliases),
		"TURNS":          turnsBlock(s),
		"LEDGER":         ledgerBlock(s, aliases, idx),
	})
}

// joinLines is a block's lines, or `(none)` when it has none. Each line is one line whatever its cells
// held: a cell is escaped where it is cut (cut, oneLine), and a line once more here, which changes
// nothing unless a cell got past them.
func joinLines(lines []string) string {
	if len(lines) == 0 {
		return none
	}
	for i, l := range lines {
		lines[i] = escaped(l)
	}
	return strings.Join(lines, "\n")
}
