package state

import (
	"encoding/json"
	"slices"
)

// CommandClass is what a shell command does, as the ledger classifies it.
type CommandClass string

// The command classes.
const (
	ClassTest      CommandClass = "test"
	ClassLint      CommandClass = "lint"
	ClassFormat    CommandClass = "format"
	ClassTypecheck CommandClass = "typecheck"
	ClassBuild     CommandClass = "build"
	ClassInstall   CommandClass = "install"
	ClassGit       CommandClass = "git"
	ClassRead      CommandClass = "read"
	ClassSearch    CommandClass = "search"
	ClassOther     CommandClass = "other"
)

// Category is a finding's category: the nine names are the whole enum.
type Category string

// Categories lists the nine categories in ContextSaver's order.
var Categories = []Category{"execution", "reading", "production", "behavior", "communication", "multi-agent", "environment", "process", "other"}

// IsCategory reports whether s is one of the nine categories.
func IsCategory(s string) bool {
	for _, c := range Categories {
		if string(c) == s {
			return true
		}
	}
	return false
}

// Choice is a person's decision on a card.
type Choice string

// The three choices, named as the pane shows them; the wire keeps ContextSaver's words (keep, steer,
// kill). FixWithNote is "Fix…": the person's own instruction, typed in the card's field; Fix sends the
// card's own fix.
const (
	Ignore      Choice = "keep"
	FixWithNote Choice = "steer"
	Fix         Choice = "kill"
)

// ProcessTrigger is what asked for a process run.
type ProcessTrigger string

// The process triggers: an accepted ExitPlanMode, a Workflow launch, a typed pace complaint, the clock.
const (
	TriggerPlan     ProcessTrigger = "plan"
	TriggerWorkflow ProcessTrigger = "workflow"
	TriggerPace     ProcessTrigger = "pace"
	TriggerClock    ProcessTrigger = "clock"
)

// TurnEnd is how a turn ended.
type TurnEnd string

// The ways a turn ends.
const (
	EndAnswer  TurnEnd = "answer"
	EndAborted TurnEnd = "aborted"
	EndRefusal TurnEnd = "refusal"
	EndError   TurnEnd = "error"
)

// ArtifactKind is the kind of lasting rule a proposal writes.
type ArtifactKind string

// The four artifact kinds.
const (
	ArtifactClaudeMD      ArtifactKind = "claude-md"
	ArtifactSkill         ArtifactKind = "skill"
	ArtifactAgentBrief    ArtifactKind = "agent-brief"
	ArtifactSettingsAllow ArtifactKind = "settings-allow"
	// ArtifactAgentsMD is a Codex session's rule: an AGENTS.md bullet, which is what Codex reads. The
	// judge never proposes it (IsArtifactKind leaves it out); the daemon renders every rule of a Codex
	// session so (rules.ForCodex).
	ArtifactAgentsMD ArtifactKind = "agents-md"
)

// IsArtifactKind reports whether s names one of the four artifact kinds a judge may propose.
func IsArtifactKind(s string) bool {
	switch ArtifactKind(s) {
	case ArtifactClaudeMD, ArtifactSkill, ArtifactAgentBrief, ArtifactSettingsAllow:
		return true
	}
	return false
}

// Ask is one prompt the person typed (composer or bridge origin): the process judge's view of what was
// asked. Session-only: Head is at most AskHeadMax characters, control characters stripped.
type Ask struct {
	Turn int    `json:"turn"`
	At   int64  `json:"at"`
	Head string `json:"head"`
	Pace bool   `json:"pace"`
}

// Lines is the lines an edit added and deleted.
type Lines struct {
	Add int64 `json:"add"`
	Del int64 `json:"del"`
}

// Launch is what an Agent row knows of the loop it launched (its JSON name stays "spawn", as
// ContextSaver's rows have it).
type Launch struct {
	Type        string   `json:"type"`
	Requested   *string  `json:"requested"`
	Resolved    *string  `json:"resolved"`
	Status      *string  `json:"status"`
	Tokens      *float64 `json:"tokens"`
	Edits       *float64 `json:"edits"`
	PromptChars int      `json:"promptChars"`
}

// Row is one tool call in the ledger.
type Row struct {
	Seq    int          `json:"seq"` // 1-based, monotonically increasing; the judge sees r<seq>
	ID     string       `json:"id"`  // tool_use_id
	Tool   string       `json:"tool"`
	Key    string       `json:"key"`
	Cls    CommandClass `json:"cls"`
	Agent  string       `json:"agent"` // the event's agentId, else "main"
	Turn   int          `json:"turn"`
	Ms     int64        `json:"ms"`
	Chars  int64        `json:"chars"`
	Head   string       `json:"head"`  // first 80 printable characters of the result text
	Flags  []string     `json:"flags"` // err denied dedup trunc bg timeout persist=N ask recommended recovered
	Lines  *Lines       `json:"lines"`
	Paths  []string     `json:"paths"`
	Launch *Launch      `json:"spawn"`

	// fold is FoldKey(Tool, Key) when the row was built with one (SetFoldKey), so folding it, 2000 rows
	// later when its lines are cold, needs no concatenation; foldKey checks it still says so.
	fold string
}

// SetFoldKey gives the row its FoldKey(Tool, Key), built with the key (intake.Keys keeps one per shell
// command): a row whose Key is a slice of it is folded with that very string, which the folded records'
// map then holds as well. A fold that does not say FoldKey(Tool, Key) is never used.
func (r *Row) SetFoldKey(fold string) { r.fold = fold }

// foldKey is FoldKey(r.Tool, r.Key), the row's own when it has one that says so.
func (r *Row) foldKey() string {
	if n := len(r.Tool); len(r.fold) == n+1+len(r.Key) && r.fold[n+1:] == r.Key && r.fold[:n] == r.Tool && r.fold[n] == '\t' {
		return r.fold
	}
	return FoldKey(r.Tool, r.Key)
}

// HasFlag reports whether the row carries flag.
func (r *Row) HasFlag(flag string) bool {
	for _, f := range r.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

// TurnStat is one completed turn of the main loop.
type TurnStat struct {
	Turn        int     `json:"turn"`
	Input       int64   `json:"input"`
	Output      int64   `json:"output"`
	CacheRead   int64   `json:"cacheRead"`
	CacheCreate int64   `json:"cacheCreate"`
	Calls       int     `json:"calls"`
	Ms          int64   `json:"ms"`
	AnswerChars int     `json:"answerChars"`
	AnswerHead  string  `json:"answerHead"`
	Aborted     bool    `json:"aborted"`
	Ended       TurnEnd `json:"ended"`
	At          int64   `json:"at"`      // clock at completion
	IdleMs      int64   `json:"idleMs"`  // wait until the next turn started (0 until it does)
	Context     *int64  `json:"context"` // tokens in the window after the turn; nil when unknown
}

// Tokens is the four token counts a turn or a fork is billed.
type Tokens struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	CacheRead   int64 `json:"cacheRead"`
	CacheCreate int64 `json:"cacheCreate"`
}

// OutcomeFindings and OutcomeReport are the two kinds of loop outcome.
const (
	OutcomeFindings = "findings"
	OutcomeReport   = "report"
)

// Outcome is what a loop returned: findings counted by severity, or a report sized in characters.
type Outcome struct {
	Kind     string `json:"kind"`
	Critical int    `json:"critical"`
	High     int    `json:"high"`
	Medium   int    `json:"medium"`
	Low      int    `json:"low"`
	Chars    int    `json:"chars"`
}

// MarshalJSON writes only the fields the outcome's kind has, as ContextSaver's union does.
func (o Outcome) MarshalJSON() ([]byte, error) {
	if o.Kind == OutcomeReport {
		return json.Marshal(struct {
			Kind  string `json:"kind"`
			Chars int    `json:"chars"`
		}{o.Kind, o.Chars})
	}
	return json.Marshal(struct {
		Kind     string `json:"kind"`
		Critical int    `json:"critical"`
		High     int    `json:"high"`
		Medium   int    `json:"medium"`
		Low      int    `json:"low"`
	}{o.Kind, o.Critical, o.High, o.Medium, o.Low})
}

// Loop is one launched agent loop; ID is its agentId (the ledger's agent), Run the workflow run that
// launched it, Ended nil while it runs. Calls, Edits, Checks and Reads count its own rows as they land,
// so its line stays whole once RowCap drops them.
type Loop struct {
	ID        string   `json:"id"`
	Run       *string  `json:"run"`
	Label     *string  `json:"label"`
	Phase     *string  `json:"phase"`
	Model     *string  `json:"model"`
	Turns     int      `json:"turns"`
	Ms        int64    `json:"ms"`
	Tokens    Tokens   `json:"tokens"`
	Ended     *TurnEnd `json:"ended"`
	FirstTurn int      `json:"firstTurn"`
	FirstSeq  int      `json:"firstSeq"`
	Outcome   *Outcome `json:"outcome"`
	Calls     int      `json:"calls"`
	Edits     int      `json:"edits"`
	Checks    int      `json:"checks"`
	Reads     int      `json:"reads"`
}

// FoldFlags counts the flags the folded rows carried.
type FoldFlags struct {
	Ask         int `json:"ask"`
	Recommended int `json:"recommended"`
	Err         int `json:"err"`
}

// Folded is one (tool, key) pair's rows dropped past RowCap: nothing citable, everything counted;
// Agent is main or the first loop seen.
type Folded struct {
	Tool      string       `json:"tool"`
	Key       string       `json:"key"`
	Cls       CommandClass `json:"cls"`
	Agent     string       `json:"agent"`
	Count     int          `json:"count"`
	Ms        int64        `json:"ms"`
	Chars     int64        `json:"chars"`
	FirstTurn int          `json:"firstTurn"`
	LastTurn  int          `json:"lastTurn"`
	Flags     FoldFlags    `json:"flags"`
}

// Run is one Workflow launched this session. At is the clock at launch; RefreshedAt the last journal
// read (0 never); Phases the script's declared meta.phases titles, empty when unread or undeclared.
type Run struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Dir         *string  `json:"dir"`
	Turn        int      `json:"turn"`
	Seq         int      `json:"seq"`
	At          int64    `json:"at"`
	RefreshedAt int64    `json:"refreshedAt"`
	Phases      []string `json:"phases"`
}

// RunInfo is what a Workflow result names of the run it launched.
type RunInfo struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Dir  *string `json:"dir"`
}

// JournalEntry is one line of a workflow journal: a loop started (Kind "started", with its label and
// phase) or returned (Kind "result", with its outcome).
type JournalEntry struct {
	Kind    string   `json:"kind"`
	AgentID string   `json:"agentId"`
	Label   *string  `json:"label,omitempty"`
	Phase   *string  `json:"phase,omitempty"`
	Outcome *Outcome `json:"outcome,omitempty"`
}

// Signature is the (tool, key) pair one recurring call carries.
type Signature struct {
	Tool string `json:"tool"`
	Key  string `json:"key"`
}

// Proposal is a lasting rule a finding proposes.
type Proposal struct {
	Kind  ArtifactKind `json:"kind"`
	Title string       `json:"title"`
	Body  string       `json:"body"`
}

// StoredPattern is what is persisted across sessions, per project.
type StoredPattern struct {
	ID               string     `json:"id"` // <category>:<slug>, slug ≤ 40
	Category         Category   `json:"category"`
	Kind             string     `json:"kind"`
	Signature        *Signature `json:"signature"` // nil = behavioural
	Why              string     `json:"why"`
	Alternative      string     `json:"alternative"`
	Confidence       float64    `json:"confidence"`
	Proposal         *Proposal  `json:"proposal"`
	EstTokensPerTurn *float64   `json:"estTokensPerTurn"`
	LastDecision     *Choice    `json:"lastDecision"`
	Lean             *string    `json:"lean"`
	// ChangedAt is when a session last changed the entry (Unix ms, the daemon's clock), so that
	// sessions writing one registry merge per pattern, newest first; 0 when never stamped. Only the
	// registry file carries it: a session's own patterns hold 0.
	ChangedAt int64 `json:"changedAt,omitempty"`
	// DecidedAt is when a session last decided the entry (Unix ms, the daemon's clock; 0 when never, or
	// by a daemon before it was kept), so a daemon that rejoins a session tells the decisions made in it
	// from an earlier session's, which a judge re-finding the pattern would stamp ChangedAt over. Only
	// the registry file carries it, as ChangedAt.
	DecidedAt int64 `json:"decidedAt,omitempty"`
}

// Cost is a process finding's claimed cost, clamped to its cited handles.
type Cost struct {
	Tokens int64 `json:"tokens"`
	Ms     int64 `json:"ms"`
}

// Pattern is a stored pattern with its session-only fields.
type Pattern struct {
	StoredPattern
	Hits          []string `json:"hits"` // row ids, turn:<n> or agent:<agentId>
	Decision      *Choice  `json:"decision"`
	DecidedAtTurn *int     `json:"decidedAtTurn"`
	Instruction   *string  `json:"instruction"`
	OpenedAtTurn  *int     `json:"openedAtTurn"`
	Ignored       int      `json:"ignored"`
	Sent          int      `json:"sent"`
	Cost          *Cost    `json:"cost,omitempty"`
	// Credit is what this pattern's instruction has added to Saved (and to Money.Saved) since its last
	// decision, nil when nothing: a relapse takes exactly this back.
	Credit *Credit `json:"-"`
}

// Decided reports whether the pattern carries a decision of choice c.
func (p *Pattern) Decided(c Choice) bool { return p.Decision != nil && *p.Decision == c }

// IsProcess reports whether the pattern is a process finding (it has a lean way).
func (p *Pattern) IsProcess() bool { return p.Lean != nil }

// JudgeUsage is what one fork of a judge cost: the same four counts a turn is billed.
type JudgeUsage = Tokens

// JudgeRun is what one run reported: findings returned and kept, one line per drop and per cap a kept
// finding missed, and what the fork cost (nil when it returned nothing).
type JudgeRun struct {
	Returned int         `json:"returned"`
	Kept     int         `json:"kept"`
	Dropped  []string    `json:"dropped"`
	Usage    *JudgeUsage `json:"usage"`
}

// Usage is the context window as last sampled; absent fields are unknown.
type Usage struct {
	Tokens    *int64   `json:"tokens,omitempty"`
	Window    int64    `json:"window"`
	Percent   *float64 `json:"percent,omitempty"`
	CompactAt *int64   `json:"compactAt,omitempty"`
}

// Overhead is the fixed per-turn overhead, in tokens: memory files, MCP tool schemas, agent descriptions.
type Overhead struct {
	Memory int64 `json:"memory"`
	MCP    int64 `json:"mcp"`
	Agents int64 `json:"agents"`
}

// Delivery is where the standing instructions went: agent ids reached, subagent prompt rewrites (agent.spawn) in flight, last toast.
type Delivery struct {
	Agents      []string `json:"agents"`
	Pending     int      `json:"pending"`
	LastToastAt int64    `json:"lastToastAt"`
}

// Saved is what settled instructions saved. Chars can be fractional: a baseline is a median.
type Saved struct {
	Ms    float64 `json:"ms"`
	Chars float64 `json:"chars"`
}

// State is one session.
type State struct {
	Cwd         string            `json:"cwd"`
	Turn        int               `json:"turn"`
	Seq         int               `json:"seq"`
	Rows        []Row             `json:"rows"`
	Folded      map[string]Folded `json:"folded"`
	Turns       []TurnStat        `json:"turns"`
	Loops       []Loop            `json:"loops"`
	Runs        []Run             `json:"runs"`
	Usage       Usage             `json:"usage"`
	Overhead    *Overhead         `json:"overhead"`
	Compactions []int             `json:"compactions"`
	Patterns    []Pattern         `json:"patterns"`
	Cards       []string          `json:"cards"`
	// Seats is the open cards by the number the person was shown (seats.go): beyond ContextSaver, which
	// numbered a card by its place in Cards. Replaced, never written in place.
	Seats        []string            `json:"-"`
	Expanded     *string             `json:"expanded"`
	Steering     *string             `json:"steering"`
	SteerDraft   *string             `json:"steerDraft"`
	Notes        []string            `json:"notes"`
	Standing     []string            `json:"standing"`
	Written      []string            `json:"written"`
	Judge        JudgeState[Habit]   `json:"judge"`
	Asks         []Ask               `json:"asks"`
	Process      JudgeState[Process] `json:"process"`
	Delivery     Delivery            `json:"delivery"`
	PendingCheck bool                `json:"pendingCheck"`
	PaneOpen     bool                `json:"paneOpen"`
	AutoOpened   bool                `json:"autoOpened"`
	Columns      *int                `json:"columns"`
	Saved        Saved               `json:"saved"`
	// Budget is the share of the session's own tokens the two judges together may spend on automatic
	// runs (see budget.go); the host and the project set it, so it is configuration, not session state,
	// and debug.state keeps ContextSaver's shape without it.
	Budget float64 `json:"-"`
	// Money is the session's spend and savings in one unit (money.go); beyond ContextSaver's state, so
	// debug.state keeps ContextSaver's shape without it.
	Money Money `json:"-"`
	// Delivered is the standing instructions and notes the main loop's context holds now (sent since its
	// last compaction, clear or lost resume), so each reaches the agent once per context; beyond
	// ContextSaver's state, which re-sent every standing instruction with every prompt. Replaced, never
	// appended to in place.
	Delivered []string `json:"-"`
	// Before is what the main loop's calls spent before this daemon joined the session (Rejoined): the
	// session's own tokens count it beside the turns it recorded. Beyond ContextSaver's state.
	Before Tokens `json:"-"`
	// Detections is what the live detectors last read and how much of the new work their findings
	// explain (detected.go); beyond ContextSaver, which had no detectors.
	Detections Detections `json:"-"`

	// What the daemon remembers of the session besides ContextSaver's state, reduced like the rest so one
	// rollback covers it; debug.state keeps ContextSaver's shape without it. The maps are copy-on-write
	// (withKey), so Clone shares them.
	//
	// LoadCheckSpoke: the load check's one failure toast has been said.
	LoadCheckSpoke bool `json:"-"`
	// Probed: the agents a journal was re-read for once already.
	Probed map[string]bool `json:"-"`
	// Rewrites: the agent.spawn prompt rewrites still open, closed by agent.spawned.
	Rewrites map[string]bool `json:"-"`

	// idx is the reducer's private lookup of loop and row ids (see lookup in reduce.go); never shared,
	// so Clone drops it and the clone rebuilds its own on first use.
	idx *lookup
	// track is what the reducer changed in place since the last Snapshot (snapshot.go); nil when
	// nothing is tracked. Never shared: Clone drops it.
	track *tracking
}

// New is a fresh session in cwd with a context window of window tokens.
func New(cwd string, window int64) *State {
	return &State{
		Cwd:         cwd,
		Rows:        []Row{},
		Folded:      map[string]Folded{},
		Turns:       []TurnStat{},
		Loops:       []Loop{},
		Runs:        []Run{},
		Usage:       Usage{Window: window},
		Compactions: []int{},
		Patterns:    []Pattern{},
		Cards:       []string{},
		Notes:       []string{},
		Standing:    []string{},
		Written:     []string{},
		Judge:       JudgeState[Habit]{JudgeRecord: JudgeRecord{Backoff: 1}},
		Asks:        []Ask{},
		Process:     JudgeState[Process]{JudgeRecord: JudgeRecord{Backoff: 1}},
		Delivery:    Delivery{Agents: []string{}},
		Budget:      JudgeBudgetDefault,
	}
}

// Clone is a copy of s that later Reduce calls on either cannot change (see the package's mutation rule).
// The shared slices are clipped to their length, so an append on the clone reallocates rather than write
// into spare capacity the original may append into too.
func (s *State) Clone() *State {
	c := *s
	c.idx, c.track = nil, nil
	c.shareAppendOnly(s)
	c.Folded = cloneFolded(s.Folded)
	c.Turns = slices.Clone(s.Turns)
	c.Loops = slices.Clone(s.Loops)
	c.Runs = slices.Clone(s.Runs)
	c.Patterns = slices.Clone(s.Patterns)
	c.clipHits()
	c.Cards = slices.Clone(s.Cards)
	return &c
}

// PatternByID is the pattern with id, or nil.
func (s *State) PatternByID(id string) *Pattern {
	for i := range s.Patterns {
		if s.Patterns[i].ID == id {
			return &s.Patterns[i]
		}
	}
	return nil
}

// LoopByID is the loop with id, or nil.
func (s *State) LoopByID(id string) *Loop {
	for i := range s.Loops {
		if s.Loops[i].ID == id {
			return &s.Loops[i]
		}
	}
	return nil
}
