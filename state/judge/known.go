package judge

import (
	"github.com/saverd/saverd/state"
)

// KNOWN PATTERNS and DECISIONS: the registry the judge must reuse and respect.
//
//	<id> | <kind> | <decision> @ <turn> | previous <choice>     KNOWN PATTERNS: every pattern, registry order
//	<id> | <key> | <choice> @ <turn>                            DECISIONS: every decision this session
//	<id> | <key> | keep @ previous session                      then the keeps a previous session made
//
// An undecided pattern reads `open`; `previous` is the last session's decision or `-`. key is the
// signature's key, `-` for a behavioural pattern. A previous-session keep is a pattern whose lastDecision
// is keep and that nobody decided this session. At most MaxPatterns lines each, then `~ ×N more`.

func knownPatternsBlock(s *state.State) string {
	lines := make([]string, 0, min(len(s.Patterns), state.MaxPatterns)+1)
	for i := range s.Patterns {
		if i == state.MaxPatterns {
			lines = append(lines, "~ ×"+inum(len(s.Patterns)-i)+" more")
			break
		}
		p := &s.Patterns[i]
		previous := "-"
		if p.LastDecision != nil {
			previous = oneLine(string(*p.LastDecision), clsMax)
		}
		lines = append(lines, join(cut(p.ID, idMax), oneLine(p.Kind, kindMax), decisionCell(p), "previous "+previous))
	}
	return joinLines(lines)
}

// decisionCell is `steer @ 9`, `keep @ -` when the turn is unknown, or `open`.
func decisionCell(p *state.Pattern) string {
	if p.Decision == nil {
		return "open"
	}
	at := "-"
	if p.DecidedAtTurn != nil {
		at = inum(*p.DecidedAtTurn)
	}
	return oneLine(string(*p.Decision), clsMax) + " @ " + at
}

func decisionsBlock(s *state.State) string {
	var lines []string
	add := func(p *state.Pattern, cell string) {
		if len(lines) < state.MaxPatterns {
			lines = append(lines, join(cut(p.ID, idMax), keyCell(p.Signature), cell))
		}
	}
	total := 0
	for i := range s.Patterns {
		if p := &s.Patterns[i]; p.Decision != nil {
			add(p, decisionCell(p))
			total++
		}
	}
	for i := range s.Patterns {
		if p := &s.Patterns[i]; p.Decision == nil && p.LastDecision != nil && *p.LastDecision == state.Ignore {
			add(p, "keep @ previous session")
			total++
		}
	}
	if more := total - len(lines); more > 0 {
		lines = append(lines, "~ ×"+inum(more)+" more")
	}
	return joinLines(lines)
}

func keyCell(sig *state.Signature) string {
	if sig == nil {
		return "-"
	}
	return cut(sig.Key, state.KeyMax)
}
