package state

// ContextSaver's constants, with the reason each has the value it has.
const (
	PluginName = "contextsaver"
	PaneID     = "saver"
	PaneTitle  = "ContextSaver"
	// PaneInlineRows is the body rows requested when seated inline above the prompt.
	PaneInlineRows = 18
	// AutoOpenMinColumns: unasked opens wait undrawn below this width.
	AutoOpenMinColumns = 144
	// SettleTurns: an instruction not ignored for this many turns is credited.
	SettleTurns = 2
	// JudgeMinNewTokens and JudgeMinTurns gate the between-turns cadence.
	JudgeMinNewTokens = 30_000
	JudgeMinTurns     = 3
	// JudgeMinRows is the row floor: fewer rows are nothing to judge.
	JudgeMinRows = 8
	// JudgeMaxBackoff caps the judge's doubling when it spends over its budget share.
	JudgeMaxBackoff = 4
	// JudgeBudgetShare is the share of the session's tokens the judge may spend before it backs off.
	JudgeBudgetShare = 0.03
	// JudgeBudgetDefault is the cap on what the two judges may spend on automatic runs: 5% of the
	// session's own tokens, so a check never costs a tenth of what it watches (see budget.go).
	JudgeBudgetDefault = 0.05
	// JudgeLedgerRows is how many rows the LEDGER renders in full; older rows fold into `~` lines.
	JudgeLedgerRows = 150
	// MaxFindings is the findings kept per judge run.
	MaxFindings = 6
	// MaxBehavioralFindings is the findings with signature null kept per judge run.
	MaxBehavioralFindings = 3
	// MaxPatterns caps the registry, decided patterns ranked first.
	MaxPatterns = 50
	// RowCap is the ledger's length; older rows are folded, never lost from totals.
	RowCap = 2000
	// FoldedCap bounds the folded records kept per (tool, key); past it the smallest are merged into
	// one record per tool, class and loop (key OtherKeys), so every total still counts them.
	FoldedCap = 2000
	// KindMax, AlternativeMax and KeyMax bound a finding's sentence, its fix and a ledger key.
	KindMax        = 120
	AlternativeMax = 200
	KeyMax         = 200
	// DebugMaxLines is `/saver debug`'s ceiling.
	DebugMaxLines = 40
	// DebugMaxPatterns is the pattern lines `/saver debug` prints before folding the rest.
	DebugMaxPatterns = 16
	// DebugMaxDropped is the dropped-finding reasons `/saver debug` and the debug log print.
	DebugMaxDropped = 6
	// BriefTools is what an agent brief allows when the proposal names none.
	BriefTools = "Read, Grep, Glob"
	// ClaudeMDHeading is the section of CLAUDE.md the lasting rules go under.
	ClaudeMDHeading = "## ContextSaver"
	// RecoveredFlag marks a row rebuilt from the transcript: its ms is 0 and its agent reads main.
	RecoveredFlag = "recovered"
	// MainAgent is Row.Agent of the main loop; the alias table leaves it as it is.
	MainAgent = "main"
	// NoCalls is Evidence.What of a turn handle: that turn ran none.
	NoCalls = "no tool calls"
	// CardEvidence is the cited calls one card's details show, newest first.
	CardEvidence = 3
	// JudgeMinNewRows is the mid-turn cadence: ledger rows since the last run (a turn can last hours).
	JudgeMinNewRows = 40
	// JudgeMinGapMs keeps at least five minutes between mid-turn runs.
	JudgeMinGapMs = 300_000
	// TrendTurns is the context samples the header's trend draws.
	TrendTurns = 10
	// Sinks is the named sinks the Time and Context rows show.
	SinksShown = 3
	// LoopCap is the loops kept (oldest dropped).
	LoopCap = 400
	// AgentsRows is the loop lines the AGENTS block renders in full; older ones fold per run.
	AgentsRows = 60
	// RunRefreshMs: a running workflow's journal is re-read at most this often.
	RunRefreshMs = 10_000
	// RunFreshMs: a run with no loop yet counts as active this long after its launch.
	RunFreshMs = 600_000
	// StoreKeyVersion: 0.5 starts fresh; a 0.4 `patterns:<cwd>` entry is never read.
	StoreKeyVersion = "v5"
	// FoldLines is the `~` lines the LEDGER prints, largest by characters first; the rest become one `~ ×N more` line.
	FoldLines = 40
	// JudgeAgentRows is the rows one agent loop may hold in the citable window, so no single loop fills it.
	JudgeAgentRows = 40
	// AskHeadMax is the characters of a typed prompt kept for the process digest; session-only, never stored.
	AskHeadMax = 200
	// DigestMaxChars is the PROCESS digest's ceiling; Shape is never the section cut.
	DigestMaxChars = 40_000
	// ProcessClockMs is the process judge's clock: at most every thirty minutes, doubled past the budget share.
	ProcessClockMs = 1_800_000
	// ProcessMinConfidence: a process finding below this is dropped.
	ProcessMinConfidence = 0.75
	// MaxProcessFindings is the process findings kept per run.
	MaxProcessFindings = 3
	// DeliveryBurstMs: subagent deliveries inside this window share one toast.
	DeliveryBurstMs = 5_000
)

// Command is the slash command ContextSaver registers, as the host shows it.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
}

// SaverCommand is `/saver`, with the seed's description and hint and saverd's write and undo in them.
var SaverCommand = Command{
	Name:         "saver",
	Description:  "ContextSaver: toggle the pane · check | fix [n] [text] | ignore <n> | write <n> | undo | debug | reset",
	ArgumentHint: "[check | fix [n] [text] | ignore <n> | write <n> | undo | debug | reset]",
}

// FileTools are the tools whose ledger key is the path they touched. MultiEdit is one of them: ContextSaver
// left it out, so its rows had no key path, no lines and no paths (protocol.md, "Differences from ContextSaver").
var FileTools = []string{"Read", "Edit", "Write", "NotebookEdit", "MultiEdit"}

// StoreKey is the registry's key for one project.
func StoreKey(cwd string) string { return "patterns." + StoreKeyVersion + ":" + cwd }

// IsFileTool reports whether tool keys its rows by path.
func IsFileTool(tool string) bool {
	for _, t := range FileTools {
		if t == tool {
			return true
		}
	}
	return false
}
