package judge

import (
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The habit prompt's size is bounded whatever the session holds: every block prints a bounded number of
// lines and every cell is cut to a width (cells.go). The worst case, in UTF-16 units, is the template
// plus each block's line count times its longest line; sep is the ` | ` between cells, and each line
// but the last costs a newline. Numbers are at most numMax characters (an int64 with its sign); a
// minutes or thousands cell (`12.5m`, `48k`) at most minMax.
const (
	sep     = 3
	minMax  = 22
	pctMax  = 23 // a share, `<n>%`
	meanMax = 23 // a median written as JavaScript would, `6.5`

	// LEDGER: fold lines, `~ ×N more`, then the window.
	pathsCellMax = pathsShow*pathMax + (pathsShow-1)*2 + len(" (+") + numMax + len(" more)")
	rowLineMax   = 1 + numMax + toolMax + state.KeyMax + clsMax + aliasMax + 3*numMax + flagsMax + pathsCellMax + 9*sep
	foldLineMax  = 1 + toolMax + state.KeyMax + 1 + numMax + 1 + numMax + len("chars") + 4*sep
	moreLineMax  = len("~ ×") + numMax + len(" more") - 1 // × is one unit, two bytes
	ledgerMax    = state.JudgeLedgerRows*rowLineMax + state.FoldLines*foldLineMax + moreLineMax + state.JudgeLedgerRows + state.FoldLines

	// KNOWN PATTERNS and DECISIONS.
	decisionCellMax = clsMax + len(" @ ") + numMax
	knownLineMax    = idMax + kindMax + decisionCellMax + len("previous ") + clsMax + 3*sep
	knownMax        = state.MaxPatterns*knownLineMax + moreLineMax + state.MaxPatterns
	decisionLineMax = idMax + state.KeyMax + decisionCellMax + 2*sep
	decisionsMax    = state.MaxPatterns*decisionLineMax + moreLineMax + state.MaxPatterns

	// STATS: per call, waits, per class, per agent.
	countMax     = 1 + numMax                // ×<n>
	msCellMax    = 1 + numMax + len("ms")    // Σ<n>ms
	charsCellMax = 1 + numMax + len("chars") // Σ<n>chars
	agentsMax    = statsAgentsShown*aliasMax + statsAgentsShown - 1 + len(" +") + numMax
	callLineMax  = toolMax + state.KeyMax + clsMax + countMax + msCellMax + charsCellMax + len("turns ") + 2*numMax + 1 +
		len("edits-between ") + meanMax + agentsMax + 8*sep
	waitsLineMax = len("waits: ") + countMax + msCellMax + len("recommended ") + countMax + 2*sep
	classLineMax = len("class ") + clsMax + countMax + msCellMax + charsCellMax + 3*sep
	agentLineMax = len("agent ") + aliasMax + countMax + msCellMax + charsCellMax + 3*sep
	statsMax     = statsKeys*callLineMax + waitsLineMax + statsClasses*classLineMax + statsAgents*agentLineMax + 3*moreLineMax +
		statsKeys + statsClasses + statsAgents + 3

	// TIME and CONTEXT, each.
	totalLineMax = len("total") + countMax + charsCellMax + 2*sep
	sinkLineMax  = toolMax + countMax + charsCellMax + pctMax + 3*sep
	apartLineMax = len("agents") + countMax + charsCellMax + len("apart") + 3*sep
	topLineMax   = 1 + numMax + toolMax + state.KeyMax + charsCellMax + 3*sep
	sinksMax     = totalLineMax + sinkLines*sinkLineMax + apartLineMax + topRows*topLineMax + sinkLines + topRows + 1

	// AGENTS: runs, folded loops, loops.
	runLineMax     = labelMax + runIDMax + len("loops ") + numMax + 2*(1+minMax) + len("edits ") + numMax + len("turn ") + numMax + 6*sep
	loopFoldMax    = len("~ ") + runIDMax + countMax + 2*(1+minMax) + 3*sep
	outcomeCellMax = 4*numMax + len("critical high medium low") + 4 + 3
	loopLineMax    = aliasMax + runIDMax + labelMax + modelMax + numMax + 2*minMax + len("edits checks reads ") + 3*numMax +
		outcomeCellMax + clsMax + 11*sep
	agentsBlockMax = agentRuns*runLineMax + agentFolds*loopFoldMax + state.AgentsRows*loopLineMax + 2*moreLineMax +
		agentRuns + agentFolds + state.AgentsRows + 1

	// TURNS: the fold line, the turns, the facts line.
	turnCellsMax = len("turn ") + numMax + len("in ") + numMax + len("out ") + numMax + len("cacheCreate ") + numMax +
		len("calls ") + numMax + numMax + len("ms") + len("answerChars ") + numMax + 6*sep
	turnLineMax     = turnCellsMax + len(" | aborted") + len(" | idle ") + numMax + 1
	turnFoldLineMax = turnCellsMax - len("turn ") - numMax + len("~ ×") - 1 + numMax + len(" earlier turns")
	factsLineMax    = len("facts") + len("window  tokens") + numMax + len("overhead memory  · mcp  · agents  tokens per turn") - 2 + 3*numMax +
		len("compactions at turn ") + factCompactions*numMax + (factCompactions-1)*2 + len(" (+") + numMax + len(" earlier)") + 3*sep
	turnsMax = turnRows*turnLineMax + turnFoldLineMax + factsLineMax + turnRows + 1

	blocksMax = knownMax + decisionsMax + statsMax + 2*sinksMax + agentsBlockMax + turnsMax + ledgerMax
)

// PromptMaxChars is the most UTF-16 units BuildPrompt can return, whatever the session holds.
var PromptMaxChars = jstext.Len16(judgePrompt) - placeholdersLen() + blocksMax

// ProcessPromptMaxChars is the most UTF-16 units BuildProcessPrompt can return: the digest is cut to
// DigestMaxChars.
var ProcessPromptMaxChars = jstext.Len16(processPrompt) - len("{{DIGEST}}") + state.DigestMaxChars

func placeholdersLen() int {
	n := 0
	for _, p := range placeholders {
		n += len("{{" + p + "}}")
	}
	return n
}
