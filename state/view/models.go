package view

import (
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// The view models the band and the pane draw: computed by the views (card.go, pane.go, band.go,
// header.go) from a State, never stored in it. The judges' validated findings are state.Finding.

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
	PatternID string         `json:"patternId"`
	N         int            `json:"n"`
	Category  state.Category `json:"category"`
	Kind      string         `json:"kind"`
	Stats     string         `json:"stats"`
	Why       string         `json:"why"`
	Fix       string         `json:"fix"`
	Lean      *string        `json:"lean"`
	Total     CardTotal      `json:"total"`
	Evidence  []Evidence     `json:"evidence"`
}

// Header is the pane's hero row.
type Header struct {
	Percent            *float64     `json:"percent"`
	TokensToCompaction *int64       `json:"tokensToCompaction"`
	TurnsToCompaction  *int64       `json:"turnsToCompaction"`
	Trend              []float64    `json:"trend"`
	Time               *state.Sinks `json:"time"`
	Context            *state.Sinks `json:"context"`
	JudgeTime          *string      `json:"judgeTime"`
	JudgeContext       *string      `json:"judgeContext"`
	JudgeRuns          int          `json:"judgeRuns"`
	JudgeTokens        int64        `json:"judgeTokens"`
	JudgeShare         float64      `json:"judgeShare"`
	JudgeRunning       bool         `json:"judgeRunning"`
	SavedPct           float64      `json:"savedPct"`
	SavedMs            float64      `json:"savedMs"`
	// SavedChars is the context the settled fixes kept out, in characters: what SavedPct is a share of,
	// told in tokens when the share rounds under 0.1 %, as the saved toast tells it.
	SavedChars float64 `json:"savedChars"`
	// Budget is where the judges stand against their cap (state.BudgetOf).
	Budget state.Budget `json:"budget"`
	// Money is the net of savings and judge spend (MoneyOf), nil while there is none.
	Money *MoneyView `json:"money"`
}

// DecidedRow is one decision as the pane's decided list draws it.
type DecidedRow struct {
	PatternID   string       `json:"patternId"`
	Choice      state.Choice `json:"choice"`
	Kind        string       `json:"kind"`
	SavedPct    *float64     `json:"savedPct"`
	Settled     bool         `json:"settled"`
	Instruction *string      `json:"instruction"`
	Ignored     int          `json:"ignored"`
	Sent        int          `json:"sent"`
}

// PaneModel is everything the pane renders.
type PaneModel struct {
	Header     Header           `json:"header"`
	Wasters    []Card           `json:"wasters"`
	Expanded   *string          `json:"expanded"`
	Steering   *string          `json:"steering"`
	SteerDraft *string          `json:"steerDraft"`
	Decided    []DecidedRow     `json:"decided"`
	Artifacts  []rules.Artifact `json:"artifacts"`
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
	State    string         `json:"state"`
	Died     *state.TurnEnd `json:"died"`
	Running  *BandRunning   `json:"running"`
	Fresh    int            `json:"fresh"`
	CostPct  float64        `json:"costPct"`
	CostMs   float64        `json:"costMs"`
	SavedPct float64        `json:"savedPct"`
	SavedMs  float64        `json:"savedMs"`
	// SavedChars: as the pane header's (Header.SavedChars).
	SavedChars float64    `json:"savedChars"`
	Calls      int        `json:"calls"`
	PaneOpen   bool       `json:"paneOpen"`
	Money      *MoneyView `json:"money"` // as the header's
}
