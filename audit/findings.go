package audit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/judge"
)

// Finding is one finding the audit states: a detector's, with what its waste took, or — with
// --judge — one of the judge's that no detector made. Rows are the evidence as the ledger numbers it.
type Finding struct {
	// Source is the detector that made it (state/detect), or "judge".
	Source string `json:"source"`
	state.Finding
	Rows []string     `json:"rows"`
	Cost *detect.Cost `json:"cost,omitempty"`
	// Confirmed is set once the judge ran: whether it reported the same behaviour (the same signature,
	// or a row both cite), and under which id.
	Confirmed   *bool  `json:"confirmed,omitempty"`
	ConfirmedBy string `json:"confirmedBy,omitempty"`
}

// DetectSession is what the detectors read of a replayed session: its rows and compactions, and what
// the transcript holds of each call beyond its row (its whole input, a shell call's whole command).
func DetectSession(tr agentlog.Transcript, st *state.State) detect.Session {
	return detect.Session{Rows: st.Rows, Compactions: st.Compactions, Cwd: tr.Cwd, Calls: detect.CallsOf(tr.Messages)}
}

// findingsOf is the detectors' findings as the audit states them.
func findingsOf(st *state.State, found []detect.Finding) []Finding {
	out := make([]Finding, 0, len(found))
	for i := range found {
		f := found[i]
		out = append(out, Finding{Source: string(f.Detector), Finding: f.Finding, Rows: rowHandles(st, f.Evidence), Cost: &f.Cost})
	}
	return out
}

// rowHandles is the ledger's r<seq> of each cited row id; a turn or agent handle stays as it is.
func rowHandles(st *state.State, evidence []string) []string {
	out := make([]string, 0, len(evidence))
	for _, id := range evidence {
		h := id
		for i := range st.Rows {
			if st.Rows[i].ID == id {
				h = "r" + strconv.Itoa(st.Rows[i].Seq)
				break
			}
		}
		out = append(out, h)
	}
	return out
}

// confirm marks each detector finding with whether the judge reported the same behaviour, and adds the
// judge's findings that no detector made.
func confirm(st *state.State, fs []Finding, judged []state.Finding) []Finding {
	used := make([]bool, len(judged))
	for i := range fs {
		fs[i].Confirmed = new(false)
		for j := range judged {
			if sameBehaviour(&fs[i].Finding, &judged[j]) {
				fs[i].Confirmed, fs[i].ConfirmedBy, used[j] = new(true), judged[j].ID, true
				break
			}
		}
	}
	for j := range judged {
		if !used[j] {
			fs = append(fs, Finding{Source: "judge", Finding: judged[j], Rows: rowHandles(st, judged[j].Evidence)})
		}
	}
	return fs
}

// sameBehaviour: two findings name one behaviour when they carry one signature or cite a row in common.
func sameBehaviour(a, b *state.Finding) bool {
	if a.Signature != nil && b.Signature != nil && *a.Signature == *b.Signature {
		return true
	}
	for _, h := range a.Evidence {
		if slices.Contains(b.Evidence, h) {
			return true
		}
	}
	return false
}

// showDetected puts the detectors' findings in the pane as cards, as a live session would, less those
// the judge confirmed (its own card names them already).
func showDetected(st *state.State, fs []Finding) {
	var found []state.Finding
	for i := range fs {
		if f := &fs[i]; f.Source != "judge" && (f.Confirmed == nil || !*f.Confirmed) {
			found = append(found, f.Finding)
		}
	}
	if len(found) == 0 {
		return
	}
	merged := judge.Merge(st, found)
	state.Reduce(st, state.Detected{Patterns: merged.Patterns, Fresh: merged.Fresh})
}

// findingsText is the FINDINGS section: each finding, its rows, what it took, its fix, and — once the
// judge ran — whether it agreed. Why is the pane's to say (its card), and the JSON's.
func findingsText(b *strings.Builder, a *Audit, width int) {
	b.WriteString("\nFINDINGS  found in the rows, no model asked")
	if a.Judge != nil {
		b.WriteString("; the judge's beside them")
	}
	b.WriteString("\n")
	if len(a.Findings) == 0 {
		if a.Judge != nil {
			b.WriteString("  none: neither the rows nor the judge show a waste\n")
		} else {
			b.WriteString("  none: the rows show no waste a rule can name (--judge asks a model)\n")
		}
	}
	for i := range a.Findings {
		f := &a.Findings[i]
		fmt.Fprintf(b, "  %d. %s\n", i+1, f.Kind)
		meta := f.ID + " · " + f.Source + " · rows " + strings.Join(f.Rows, " ")
		if f.Cost != nil {
			meta += " · took " + costText(*f.Cost)
		}
		wrapTo(b, meta, width, "     ")
		wrapTo(b, "fix: "+f.Alternative, width, "     ")
		switch {
		case f.Source == "judge":
			b.WriteString("     judge only: no rule above names it\n")
		case f.Confirmed == nil:
		case *f.Confirmed:
			fmt.Fprintf(b, "     judge: confirmed (%s)\n", f.ConfirmedBy)
		default:
			b.WriteString("     judge: not reported\n")
		}
	}
}

// costText is what a waste took: its time, when it took any, and its context in characters and tokens.
func costText(c detect.Cost) string {
	s := textout.Tokens(c.Chars) + " chars (≈" + textout.Tokens(c.Chars/4) + " tokens)"
	if c.Ms > 0 {
		return jstext.Duration(float64(c.Ms)) + " and " + s
	}
	return s
}

// wrapTo writes text in lines of at most width runes, each opening with indent, broken between words.
func wrapTo(b *strings.Builder, text string, width int, indent string) {
	room := max(width-len(indent), 20)
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > room {
			b.WriteString(indent + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		b.WriteString(indent + line + "\n")
	}
}

// repeatsOf is the audit's REPEATED CALLS from the detectors' grouping, each repeat's rows as the ledger
// numbers them.
func repeatsOf(st *state.State, rs []detect.Repeat) []detect.Repeat {
	for i := range rs {
		rs[i].Rows = rowHandles(st, rs[i].Rows)
	}
	return rs
}
