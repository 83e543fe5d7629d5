package state

// Action is one event the reducer applies to a session. Each concrete type below is one member of
// ContextSaver's Action union, with the same meaning; Reduce switches on them.
type Action interface{ action() }

// TurnStart: a prompt started a turn; Now dates the idle wait since the last completed turn.
type TurnStart struct{ Now int64 }

// LoopTurn: one turn of an agent loop completed.
type LoopTurn struct {
	AgentID string
	Model   *string
	Ms      int64
	Tokens  Tokens
	Ended   TurnEnd
	Turn    int
}

// AgentStart: an Agent tool result named its loop.
type AgentStart struct {
	AgentID     string
	Description string
	Model       *string
}

// RunStart: a Workflow tool result launched a run (an id already present is a resume).
type RunStart struct {
	Run RunInfo
	Now int64
}

// RunJournal: a run's journal was read: stages and outcomes of its loops.
type RunJournal struct {
	RunID   string
	Entries []JournalEntry
	Now     int64
}

// AddRow: one tool call finished; Row.Seq is assigned by the reducer.
type AddRow struct{ Row Row }

// Adopt: rows rebuilt from the transcript of a session joined late.
type Adopt struct{ Rows []Row }

// TurnComplete: the main loop's turn ended; Stat.Turn and Stat.Calls are filled by the reducer.
type TurnComplete struct{ Stat TurnStat }

// TurnLate: API calls of the turn that completed last were read after it ended (a harness wrote them
// after its turn-end hook ran): their tokens count in that turn, and Context, when set, is the window
// after the newest of them.
type TurnLate struct {
	Tokens  Tokens
	Context *int64
}

// UsageSample: the context window was sampled.
type UsageSample struct {
	Usage Usage
	Now   int64
}

// SetOverhead: the fixed per-turn overhead was measured.
type SetOverhead struct{ Overhead Overhead }

// Compact: the host compacted the context.
type Compact struct{}

// Expand: a card's details were toggled; nil collapses.
type Expand struct{ PatternID *string }

// SteerBegin: a card's Fix… field was toggled.
type SteerBegin struct{ PatternID string }

// SteerDraft: the person typed into the Fix… field.
type SteerDraft struct{ Text string }

// Decide: the person decided a card; Text is required for steer.
type Decide struct {
	PatternID string
	Choice    Choice
	Text      *string
}

// JudgeStart: a run of Kind's judge began, at Now and at ledger row Seq, for its cadence; Trigger is
// what asked for a process run.
type JudgeStart struct {
	Kind    JudgeKind
	Now     int64
	Seq     int
	Trigger ProcessTrigger
}

// JudgeDone: a run of Kind's judge ended with its merged registry (or with an error). Focus, Time and
// Context are the habit judge's alone.
type JudgeDone struct {
	Kind     JudgeKind
	Patterns []Pattern
	Fresh    []string
	Recurred []string
	Focus    *string
	Time     *string
	Context  *string
	Spent    int64
	Error    *string
	Returned int
	Kept     int
	Dropped  []string
	Usage    *JudgeUsage
	// CostUSD is what the run cost in dollars (the fork's own figure, else its usage at the model's
	// price); nil when no price is known, and Spent is then counted as unpriced tokens.
	CostUSD *float64
}

// JudgeCold: the fork of Kind's run had no warm snapshot; the cadence it spent is handed back.
type JudgeCold struct {
	Kind JudgeKind
	Was  JudgeMark
}

// JudgeClaim: a run of Kind's judge was decided on; no second one starts until JudgeRelease.
type JudgeClaim struct{ Kind JudgeKind }

// JudgeRelease: the run of Kind's judge is over, answered or not, and so is any ask of it.
type JudgeRelease struct{ Kind JudgeKind }

// JudgeAsked: someone asked for an answer while Kind's run was in flight; that run answers them.
type JudgeAsked struct{ Kind JudgeKind }

// LoadCheckSpoke: the load check's one failure toast was said; it is retried quietly from now on.
type LoadCheckSpoke struct{}

// LoopProbed: the journal was re-read once for this agent, which called before any journal named it.
type LoopProbed struct{ AgentID string }

// RewriteOpened: an agent.spawn prompt rewrite is open until agent.spawned closes it.
type RewriteOpened struct{ SpawnID string }

// RewriteClosed: agent.spawned closed the prompt rewrite.
type RewriteClosed struct{ SpawnID string }

// AddAsk: the person typed a prompt.
type AddAsk struct{ Ask Ask }

// RunPhases: the run's script declared these phases.
type RunPhases struct {
	RunID  string
	Phases []string
}

// DeliveryPending: an agent.spawn rewrite began (+1) or finished (-1).
type DeliveryPending struct{ Delta int }

// DeliverySent: the standing instructions reached this agent.
type DeliverySent struct {
	AgentID string
	Now     int64
}

// DeliveryToasted: a delivery toast was shown.
type DeliveryToasted struct{ Now int64 }

// CheckArm: the adopted ledger passes the row floor: judge it, and again until a run answers.
type CheckArm struct{}

// NotesDrained: the one-shot notes were delivered.
type NotesDrained struct{}

// StandingAdd: a text is re-sent with every prompt from now on.
type StandingAdd struct{ Text string }

// ArtifactDone: a rule was written, tried or skipped.
type ArtifactDone struct {
	PatternID string
	Kind      ArtifactKind
	Written   bool
}

// SetPane: the pane opened or closed; Auto marks an unasked open.
type SetPane struct {
	Open bool
	Auto bool
}

// SetColumns: the band's width was seen.
type SetColumns struct{ Columns int }

// SetPrice: the session's model and what a million of its cache-read and (5-minute) cache-write tokens
// cost (Known false: the model has no price, and the figures are told in tokens).
type SetPrice struct {
	Model      string
	CacheRead  float64
	CacheWrite float64
	Known      bool
}

// Injected: saverd put these texts into a loop's context (the standing instructions and one-time notes
// next to a prompt or a tool result, a subagent's fixes): spend, and for the main loop (Main) texts its
// context now holds, which are not sent again until it no longer does.
type Injected struct {
	Texts []string
	Main  bool
	// Ahead: the texts first reach a request of the next turn (a SessionStart's answer, before the
	// prompt that starts it), not of the turn in progress.
	Ahead bool
}

// ContextHolds: the main loop's context already holds these texts, sent before the daemon joined the
// session (its transcript carries them since its last compaction): they are not sent again, and are
// re-read on its later turns like any other.
type ContextHolds struct{ Texts []string }

// SetBudget: the judges' cap, a share of the session's own tokens in 0..1, as the host or the project set it.
type SetBudget struct{ Share float64 }

// Reset: the session starts over; patterns survive as stored.
type Reset struct{}

func (TurnStart) action()       {}
func (SetBudget) action()       {}
func (SetPrice) action()        {}
func (Injected) action()        {}
func (ContextHolds) action()    {}
func (LoopTurn) action()        {}
func (AgentStart) action()      {}
func (RunStart) action()        {}
func (RunJournal) action()      {}
func (AddRow) action()          {}
func (Adopt) action()           {}
func (TurnComplete) action()    {}
func (TurnLate) action()        {}
func (UsageSample) action()     {}
func (SetOverhead) action()     {}
func (Compact) action()         {}
func (Expand) action()          {}
func (SteerBegin) action()      {}
func (SteerDraft) action()      {}
func (Decide) action()          {}
func (JudgeStart) action()      {}
func (JudgeDone) action()       {}
func (JudgeCold) action()       {}
func (JudgeClaim) action()      {}
func (JudgeRelease) action()    {}
func (JudgeAsked) action()      {}
func (LoadCheckSpoke) action()  {}
func (LoopProbed) action()      {}
func (RewriteOpened) action()   {}
func (RewriteClosed) action()   {}
func (AddAsk) action()          {}
func (RunPhases) action()       {}
func (DeliveryPending) action() {}
func (DeliverySent) action()    {}
func (DeliveryToasted) action() {}
func (CheckArm) action()        {}
func (NotesDrained) action()    {}
func (StandingAdd) action()     {}
func (ArtifactDone) action()    {}
func (SetPane) action()         {}
func (SetColumns) action()      {}
func (Reset) action()           {}
