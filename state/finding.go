package state

// Finding is one judge finding after validation: what state/judge reads from a reply and merges into
// the session's patterns.
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
