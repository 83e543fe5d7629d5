package state

import "slices"

// Detected: findings that need no model (package state/detect) merged into the registry (judge.Merge
// makes Patterns), Fresh the ids that belong in front of the person. No judge ran: nothing is spent,
// no run is counted, the judge's budget is untouched. Cited and Through, when a live session sends
// them, let the habit judge's cadence leave out the work the findings already explain (Detections).
type Detected struct {
	Patterns []Pattern
	Fresh    []string
	// Cited is every row id the detectors' findings cite, those already carded or decided too: work a
	// rule has named is no new work for the judge to weigh.
	Cited []string
	// Through is the newest row (its Seq) the detectors read.
	Through int
}

func (Detected) action() {}

// Detections is what the live detectors last read and explained. The counts are of the rows past the
// habit judge's LastAtSeq when they were taken (Since): once another run starts they are stale, and
// Explained says nothing until the next detection counts again.
type Detections struct {
	// Through is the newest row the last detection read: a finding is news when it cites a row past it.
	Through int
	Since   int
	// Rows is the rows past Since that a finding cites; Tokens what they put into the context
	// (characters / 4, as every estimate of context in tokens here).
	Rows   int
	Tokens int64
}

// Explained is the work since the habit judge's last run that the detectors' findings cite: the rows,
// and their context in tokens. The judge's cadence leaves both out of what it counts as new.
func Explained(s *State) (rows int, tokens int64) {
	d := &s.Detections
	if d.Since != s.Judge.LastAtSeq {
		return 0, 0
	}
	return d.Rows, d.Tokens
}

// detected puts the registry in place and the fresh undecided ids in front of the cards already queued,
// each once; a card whose pattern the registry no longer holds goes. It counts what the findings
// explain since the habit judge's last run.
func detected(s *State, a Detected, e *Effects) {
	patterns := ownPatterns(a.Patterns, 0)
	cards := make([]string, 0, len(a.Fresh)+len(s.Cards))
	for i, id := range a.Fresh {
		if undecidedIn(patterns, id) && !slices.Contains(a.Fresh[:i], id) && !slices.Contains(s.Cards, id) {
			cards = append(cards, id)
		}
	}
	for _, id := range s.Cards {
		if patternIn(patterns, id) != nil {
			cards = append(cards, id)
		}
	}
	e.Queued = queuedOf(a.Fresh, cards)
	s.Patterns = patterns
	s.Cards = cards
	s.Detections = explainedBy(s, a.Cited, max(s.Detections.Through, a.Through))
}

// explainedBy counts the rows past the habit judge's LastAtSeq that cited names, newest first until
// the first row the judge has weighed.
func explainedBy(s *State, cited []string, through int) Detections {
	d := Detections{Through: through, Since: s.Judge.LastAtSeq}
	if len(cited) == 0 {
		return d
	}
	ids := make(map[string]bool, len(cited))
	for _, id := range cited {
		ids[id] = true
	}
	for i := len(s.Rows) - 1; i >= 0 && s.Rows[i].Seq > d.Since; i-- {
		if r := &s.Rows[i]; ids[r.ID] {
			d.Rows++
			d.Tokens += r.Chars / 4
		}
	}
	return d
}
