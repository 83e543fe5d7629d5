package detect

import "github.com/saverd/saverd/state"

// What a live session needs beyond Run: what to keep of each call as it is recorded, which findings to
// put in front of the person at a turn's end, and which rows they explain.

// LiveCall is what a live session keeps of a call beyond its row, so that Run reads its ledger as it
// reads a transcript's with every call's whole input: a shell call's whole command when its key leaves
// part of it out (a pipe, a redirect, a chain, the cut at KeyMax), and a Grep's whole input (its key is
// its pattern and path alone). input is asked only for a Grep. ok is false when the row says it all.
func LiveCall(r *state.Row, command string, input func() string) (c Call, ok bool) {
	switch r.Tool {
	case "Bash":
		if command != "" && command != keyText(r.Key) {
			return Call{Command: command}, true
		}
	case "Grep":
		if in := input(); in != "" {
			return Call{Input: in}, true
		}
	}
	return Call{}, false
}

// News is the findings a live session puts in front of the person now, as the registry's merge takes
// them: those that cite a row past the last detection (s.Detections.Through: the rest were news then,
// and were carded or decided), less those the person kept (Unkept), less a behaviour the registry
// already names under another id (the same signature: a judge's card, or one decided before), and less
// one kept in a previous session unless it is as strong as the judge's template asks of one (three
// occurrences or more, confidence 0.8 or more).
func News(s *state.State, fs []Finding) []state.Finding {
	fresh := freshRows(s)
	out := make([]state.Finding, 0, len(fs))
	for _, f := range Unkept(s, fs) {
		if !citesAny(&f, fresh) || namedElsewhere(s, &f) || (keptBefore(s, &f) && !(len(f.Evidence) >= 3 && f.Confidence >= 0.8)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Cited is every row id the findings cite, each once.
func Cited(fs []Finding) []string {
	var out []string
	seen := map[string]bool{}
	for i := range fs {
		for _, id := range fs[i].Evidence {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// freshRows is the ids of the rows past the last detection.
func freshRows(s *state.State) map[string]bool {
	out := map[string]bool{}
	for i := len(s.Rows) - 1; i >= 0 && s.Rows[i].Seq > s.Detections.Through; i-- {
		out[s.Rows[i].ID] = true
	}
	return out
}

func citesAny(f *state.Finding, ids map[string]bool) bool {
	for _, id := range f.Evidence {
		if ids[id] {
			return true
		}
	}
	return false
}

// namedElsewhere reports whether the registry names the finding's behaviour under another id.
func namedElsewhere(s *state.State, f *state.Finding) bool {
	if f.Signature == nil {
		return false
	}
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.ID != f.ID && p.Signature != nil && *p.Signature == *f.Signature {
			return true
		}
	}
	return false
}

// keptBefore reports whether a previous session kept (Ignore) the finding's behaviour, by id or by
// signature, and nobody decided it in this one.
func keptBefore(s *state.State, f *state.Finding) bool {
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Decision != nil || p.LastDecision == nil || *p.LastDecision != state.Ignore {
			continue
		}
		if p.ID == f.ID || (p.Signature != nil && f.Signature != nil && *p.Signature == *f.Signature) {
			return true
		}
	}
	return false
}
