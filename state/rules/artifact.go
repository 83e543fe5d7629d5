package rules

import "github.com/saverd/saverd/state"

// Artifact modes: how an artifact lands in its file.
const (
	ModeAppend        = "append"
	ModeWrite         = "write"
	ModeMergeSettings = "merge-settings"
)

// Artifact is one lasting rule the pane offers to write.
type Artifact struct {
	PatternID string             `json:"patternId"`
	Kind      state.ArtifactKind `json:"kind"`
	Title     string             `json:"title"`
	Path      string             `json:"path"`
	Content   string             `json:"content"`
	SavingPct float64            `json:"savingPct"`
	Mode      string             `json:"mode"`
	// Basis says how SavingPct is reckoned (SavingBasis): a projection, labelled as one.
	Basis string `json:"basis"`
	// Already names the file (relative to the session's directory) that holds this rule already; such a
	// rule is shown, never written again. "" when it is not there.
	Already string `json:"already,omitempty"`
}
