package rules

import (
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

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

// Pending is the rules offered to be written, numbered from 1 in this order by the pane and by
// `/saver write <n>`: every artifact no file holds already, in the order given.
func Pending(arts []Artifact) []Artifact {
	out := make([]Artifact, 0, len(arts))
	for _, a := range arts {
		if a.Already == "" {
			out = append(out, a)
		}
	}
	return out
}

// Shown is the exact text a rule adds to its file, which the pane lists before the rule can be written,
// and where in the file it goes: a bullet under the ContextSaver heading, a whole skill or brief, one
// permission in permissions.allow.
func Shown(a Artifact) (text, where string) {
	switch a.Mode {
	case ModeAppend:
		return strings.TrimSuffix(BulletOnly(a.Content), "\n"), "under " + state.ClaudeMDHeading
	case ModeMergeSettings:
		return string(jstext.AppendJSONString(nil, a.Content)), "added to permissions.allow"
	}
	return strings.TrimSuffix(a.Content, "\n"), "the whole file"
}
