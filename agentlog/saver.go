package agentlog

// Saver is what saverd did in one session, as the daemon held it when the session ended: the habits the
// judge found, what the person decided on each, and what the fixes saved net of what the judge cost.
// Only the daemon's sessions log carries it (the agents' own logs know nothing of saverd).
type Saver struct {
	Habits []Habit `json:"habits"`
	// Priced: the figures below are dollars at the session model's price (the savings measured as the
	// cache reads the fixes spared on the main-loop turns that happened, the spend as the judge's forks
	// and the instructions saverd sent, as the pane's Net row says); else only the tokens are.
	Priced             bool     `json:"priced"`
	SavedUSD           *float64 `json:"saved_usd"`
	JudgeUSD           *float64 `json:"judge_usd"`
	InstructionsUSD    *float64 `json:"instructions_usd"`
	NetUSD             *float64 `json:"net_usd"`
	SavedTokens        int64    `json:"saved_tokens"`
	JudgeTokens        int64    `json:"judge_tokens"`
	InstructionsTokens int64    `json:"instructions_tokens"`
}

// Habit is one habit (a pattern the judge named) of a session.
type Habit struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	Why      string `json:"why"`
	// Decision is "fix", "fix-with-note", "ignore", or "open" while the person has not decided.
	Decision string `json:"decision"`
	Hits     int    `json:"hits"`
	// What the habit's fix has been credited and still holds (a relapse takes it back): wall time,
	// characters of context, the cache-read tokens those spared on the turns since, and their price
	// (null unpriced).
	SavedMs     float64  `json:"saved_ms"`
	SavedChars  float64  `json:"saved_chars"`
	SavedTokens float64  `json:"saved_tokens"`
	SavedUSD    *float64 `json:"saved_usd"`
}
