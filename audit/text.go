package audit

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/view"
	"github.com/saverd/saverd/textview"
)

// Write writes the audits as json, or as text width columns wide.
func Write(w io.Writer, audits []Audit, format string, width int) error {
	if format == "json" {
		if audits == nil {
			audits = []Audit{}
		}
		return textout.WriteJSON(w, struct {
			Audits []Audit `json:"audits"`
		}{audits})
	}
	for i := range audits {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, Text(&audits[i], width)); err != nil {
			return err
		}
	}
	return nil
}

// Text is one audit for people: a title line, the pane as the live session would have drawn it, and
// the three sections the pane has no room for.
func Text(a *Audit, width int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "session %s · %s · %s · %s\n", a.SessionID, textout.OrDash(a.Harness), textout.OrDash(a.Model), textout.OrDash(a.Cwd))
	fmt.Fprintf(&b, "%s, %s, %s rebuilt from %s\n\n", textout.Plural(a.Turns, "turn"), textout.Plural(a.Calls, "API call"), textout.Plural(a.Rows, "tool call"), a.Transcript)
	b.WriteString(textview.Pane(view.BuildPane(a.st, nil), width))
	findingsText(&b, a, width)

	b.WriteString("\nREPEATED CALLS  the same call again; edits are the work, never repeats\n")
	if len(a.Repeated) == 0 {
		b.WriteString("  none: no call was made twice with the same input\n")
	}
	for _, r := range a.Repeated {
		fmt.Fprintf(&b, "  %d× %s %s · %s · %s chars (≈%s tokens)%s\n", r.Count, r.Tool, cutText(r.Key, width-40),
			jstext.Duration(float64(r.Ms)), textout.Tokens(r.Chars), textout.Tokens(r.Chars/4), afterEdit(r))
	}

	b.WriteString("\nLARGEST CONTEXT CONSUMERS\n")
	if len(a.Largest) == 0 {
		b.WriteString("  none: no tool call in the transcript\n")
	}
	for _, r := range a.Largest {
		fmt.Fprintf(&b, "  r%d turn %d %s %s · %s chars · %s\n", r.Seq, r.Turn, r.Tool, cutText(r.Key, width-50),
			textout.Tokens(r.Chars), jstext.Duration(float64(r.Ms)))
	}

	if j := a.Judge; j != nil {
		fmt.Fprintf(&b, "\nJUDGE\n  %d findings returned, %d kept; %s input, %s output, %s cache read tokens",
			j.Returned, j.Kept, textout.Tokens(j.Usage.InputTokens), textout.Tokens(j.Usage.OutputTokens), textout.Tokens(j.Usage.CacheReadInputTokens))
		if j.CostUSD != nil {
			fmt.Fprintf(&b, ", $%s", strconv.FormatFloat(*j.CostUSD, 'f', 4, 64))
		}
		b.WriteString("\n")
		for _, d := range j.Dropped {
			fmt.Fprintf(&b, "  dropped: %s\n", d)
		}
	}

	b.WriteString("\nCOMPACTION FORECAST\n")
	f := a.Forecast
	switch {
	case f.Tokens == nil || f.TokensToCompaction == nil:
		b.WriteString("  unknown: the transcript reports no usage\n")
	default:
		fmt.Fprintf(&b, "  %s of %s tokens in the window; %s left before auto-compaction", textout.Tokens(*f.Tokens), textout.Tokens(a.Window), textout.Tokens(*f.TokensToCompaction))
		if f.TurnsToCompaction != nil {
			fmt.Fprintf(&b, ", about %s turns at the recent pace\n", strconv.FormatInt(*f.TurnsToCompaction, 10))
		} else {
			b.WriteString("; too few growing turns to state a pace\n")
		}
	}
	return b.String()
}

// cutText keeps s to n runes (at least 20), marking a cut with "…".
func cutText(s string, n int) string {
	n = max(n, 20)
	s = strings.ReplaceAll(s, "\n", " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// afterEdit says how many of a repeat's runs came after a change to what they depend on: a re-read after
// an edit of its file, a check after a change, is the work, not a repeat of it.
func afterEdit(r detect.Repeat) string {
	switch {
	case r.AfterEdit == 0:
		return ""
	case r.IsRead && r.AfterEdit == 1:
		return " · 1 re-read after an edit to it"
	case r.IsRead:
		return fmt.Sprintf(" · %d re-reads after an edit to it", r.AfterEdit)
	}
	return fmt.Sprintf(" · %d after a change", r.AfterEdit)
}
