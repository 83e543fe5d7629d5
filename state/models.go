package state

// The view models the band and the pane draw, and the judge's validated findings: computed by the
// views (card.go, pane.go, band.go, header.go) from a State, never stored in it.

// Evidence is one cited call (or turn, or loop) as the details render it.
type Evidence struct {
	Turn  int     `json:"turn"`
	What  string  `json:"what"`
	Agent *string `json:"agent"`
	Ms    int64   `json:"ms"`
	Chars int64   `json:"chars"`
	Head  string  `json:"head"`
}

// CardTotal is a card's cited calls, their wall time and their context; Unit says what Calls counts.
type CardTotal struct {
	Unit  string  `json:"unit"` // calls | turns | agents
	Calls int     `json:"calls"`
	Ms    float64 `json:"ms"`
	Chars float64 `json:"chars"`
}

// Card is one waster as the pane draws it.
type Card struct {
	PatternID string     `json:"patternId"`
	N         int        `json:"n"`
	Category  Category   `json:"category"`
	Kind      string     `json:"kind"`
	Stats     string     `json:"stats"`
	Why       string     `json:"why"`
	Fix       string     `json:"fix"`
	Lean      *string    `json:"lean"`
	Total     CardTotal  `json:"total"`
	Evidence  []Evidence `json:"evidence"`
}

// Artifact modes: how an artifact lands in its file.
const (
	ModeAppend        = "append"
	ModeWrite         = "write"
	ModeMergeSettings = "merge-settings"
)

// Artifact is one lasting rule the pane offers to write.
type Artifact struct {
	PatternID string       `json:"patternId"`
	Kind      ArtifactKind `json:"kind"`
	Title     string       `json:"title"`
	Path      string       `json:"path"`
	Content   string       `json:"content"`
	SavingPct float64      `json:"savingPct"`
	Mode      string       `json:"mode"`
	// Basis says how SavingPct is reckoned (SavingBasis): a projection, labelled as one.
	Basis string `json:"basis"`
	// Already names the file (relative to the session's directory) that holds this rule already; such a
	// rule is shown, never written again. "" when it is not there.
	Already string `json:"already,omitempty"`
}

// Finding is one judge finding after validation.
type Finding struct {
	ID               string     `json:"id"`
	Category         Category   `json:"category"`
	Kind             string     `json:"kind"`
	Evidence         []string   `json:"evidence"`
	Signature        *Signature `json:"signature"`
	Why              string     `json:"why"`
	Alternative      string     `json:"alternative"`
	Confidence       float64    `json:"confidence"`
	EstTokensPerTurn *float64   `json:"estTokensPerTurn"`
	Proposal         *Proposal  `json:"proposal"`
	Lean             *string    `json:"lean"`
	Cost             *Cost      `json:"cost,omitempty"` // process findings only
}

// Sink is one named consumer (tests, reads, agents, git…); Amount in ms (time) or chars (context).
type Sink struct {
	Label  string `json:"label"`
	Amount int64  `json:"amount"`
	Count  int    `json:"count"`
}

// Sinks is a total over every ledger row of the main loop plus the agents' own rows (Agent spawn rows
// excluded: they contain their loop's rows), and the SinksShown largest named.
type Sinks struct {
	Total int64  `json:"total"`
	Sinks []Sink `json:"sinks"`
}

// Header is the pane's hero row.
type Header struct {
	Percent            *float64  `json:"percent"`
	TokensToCompaction *int64    `json:"tokensToCompaction"`
	TurnsToCompaction  *int64    `json:"turnsToCompaction"`
	Trend              []float64 `json:"trend"`
	Time               *Sinks    `json:"time"`
	Context            *Sinks    `json:"context"`
	JudgeTime          *string   `json:"judgeTime"`
	JudgeContext       *string   `json:"judgeContext"`
	JudgeRuns          int       `json:"judgeRuns"`
	JudgeTokens        int64     `json:"judgeTokens"`
	JudgeShare         float64   `json:"judgeShare"`
	JudgeRunning       bool      `json:"judgeRunning"`
	SavedPct           float64   `json:"savedPct"`
	SavedMs            float64   `json:"savedMs"`
	// Budget is where the judges stand against their cap (budget.go).
	Budget Budget `json:"budget"`
	// Money is the net of savings and judge spend (money.go), nil while there is none.
	Money *MoneyView `json:"money"`
}

// DecidedRow is one decision as the pane's decided list draws it.
type DecidedRow struct {
	PatternID   string   `json:"patternId"`
	Choice      Choice   `json:"choice"`
	Kind        string   `json:"kind"`
	SavedPct    *float64 `json:"savedPct"`
	Settled     bool     `json:"settled"`
	Instruction *string  `json:"instruction"`
	Ignored     int      `json:"ignored"`
	Sent        int      `json:"sent"`
}

// PaneModel is everything the pane renders.
type PaneModel struct {
	Header     Header       `json:"header"`
	Wasters    []Card       `json:"wasters"`
	Expanded   *string      `json:"expanded"`
	Steering   *string      `json:"steering"`
	SteerDraft *string      `json:"steerDraft"`
	Decided    []DecidedRow `json:"decided"`
	Artifacts  []Artifact   `json:"artifacts"`
}

// BandRunning is the newest active workflow run as the band names it.
type BandRunning struct {
	Name  string  `json:"name"`
	Loops int     `json:"loops"`
	Calls int     `json:"calls"`
	Label *string `json:"label"`
}

// Band states, in the order the first that applies wins.
const (
	BandDied     = "died"
	BandChecking = "checking"
	BandFound    = "found"
	BandSaved    = "saved"
	BandWatching = "watching"
)

// BandModel is the band's one teaser line.
type BandModel struct {
	State    string       `json:"state"`
	Died     *TurnEnd     `json:"died"`
	Running  *BandRunning `json:"running"`
	Fresh    int          `json:"fresh"`
	CostPct  float64      `json:"costPct"`
	CostMs   float64      `json:"costMs"`
	SavedPct float64      `json:"savedPct"`
	SavedMs  float64      `json:"savedMs"`
	Calls    int          `json:"calls"`
	PaneOpen bool         `json:"paneOpen"`
	Money    *MoneyView   `json:"money"` // as the header's
}
