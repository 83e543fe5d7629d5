package agentlog

import (
	"fmt"
	"math"
)

// HarnessFigure is what a harness's log says a session spent by its own count (Claude Code's cost-state
// line): kept as Cost.Harness, and compared with the calls the record counts once they are counted once
// (CheckHarnessFigure), since a fork's log holds calls copied from its parent that its own figure leaves
// out.
type HarnessFigure struct {
	// Source names the figure ("Claude Code's own cost-state"), Logs what the calls were read from ("the
	// transcripts"), Hint what usually explains more tokens in the figure than in the logs.
	Source, Logs, Hint string
	USD                float64
	Tokens             Tokens
}

// costTolerance is how far saverd's cost may stray from the harness's own before it is said: rounding
// aside, the same calls at the same prices cost the same.
const costTolerance = 0.005

// SetHarnessFigure keeps the harness's own figure of the session, replacing any set before.
func (r *Record) SetHarnessFigure(f HarnessFigure) {
	usd := f.USD
	r.Cost.Harness = &usd
	r.figure = &f
}

// CheckHarnessFigure adds a warning when the harness's own figure disagrees with the record's calls: other
// tokens (usually a log missing, as Hint says), or the same tokens at a cost more than costTolerance apart
// (a price table out of date, worth saying since cost.total is what impact divides). Scan checks each
// record once the calls several logs share are counted once, in their owner; a reader's caller that reads
// one log alone checks it then.
func (r *Record) CheckHarnessFigure() {
	f := r.figure
	if f == nil {
		return
	}
	theirs, ours := f.Tokens, r.Tokens
	if theirs != ours {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"session %s: %s counts %d tokens (in %d, out %d, cache read %d, cache write %d), %s %d (in %d, out %d, cache read %d, cache write %d): %s",
			r.SessionID, f.Source, theirs.Total(), theirs.Input, theirs.Output, theirs.CacheRead, theirs.CacheWrite,
			f.Logs, ours.Total(), ours.Input, ours.Output, ours.CacheRead, ours.CacheWrite, f.Hint))
		return
	}
	if cost := r.Cost.Total; cost != nil && math.Abs(*cost-f.USD) > costTolerance*max(f.USD, *cost) {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"session %s: saverd prices its calls at $%.4f, %s says $%.4f (see --prices)",
			r.SessionID, *cost, f.Source, f.USD))
	}
}
