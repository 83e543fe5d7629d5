package textview

import (
	"strconv"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// wasters is the WASTERS section: one card per undecided pattern, by the number it keeps while open.
func wasters(m view.PaneModel, w int, command string) []string {
	if len(m.Wasters) == 0 {
		if len(m.Decided) == 0 {
			return []string{"No wasters found yet"}
		}
		return []string{"No wasters waiting"}
	}
	lines := []string{"WASTERS (" + strconv.Itoa(len(m.Wasters)) + ")"}
	for i := range m.Wasters {
		c := &m.Wasters[i]
		steering := m.Steering != nil && *m.Steering == c.PatternID
		lines = append(lines, card(c, steering, m.SteerDraft, w)...)
	}
	return append(lines, wrapParts([]string{command + " fix <n> [note]", command + " ignore <n>"}, w, "", "")...)
}

// card is one waster: title, stats, why, fix, lean, the Fix… field when open, then its evidence.
func card(c *view.Card, steering bool, draft *string, w int) []string {
	seat := strconv.Itoa(c.N) + ". "
	body := "   "
	lines := wrap("["+string(c.Category)+"] "+c.Kind, w, seat, body)
	if stats := clean(c.Stats); stats != "" {
		// ContextSaver's stats are " · "-joined figures: break between them, never inside one.
		lines = append(lines, wrapParts(strings.Split(stats, sep), w, body, body)...)
	}
	lines = append(lines, labelled(body, "why", c.Why, w)...)
	lines = append(lines, labelled(body, "fix", c.Fix, w)...)
	if c.Lean != nil {
		lines = append(lines, labelled(body, "lean", *c.Lean, w)...)
	}
	if steering {
		note := state.Str(draft)
		if clean(note) == "" {
			note = "(type your instruction, Enter to send)"
		}
		lines = append(lines, wrap(note, w, body+"Fix… ", body+"     ")...)
	}
	for i := range c.Evidence {
		lines = append(lines, evidence(&c.Evidence[i], w)...)
	}
	// A card shows its newest few receipts (the seed's CardEvidence); its figures count them all, so a
	// "4×" over three receipts says where the fourth went.
	if shown := len(c.Evidence); shown > 0 && c.Total.Calls > shown {
		lines = append(lines, cut(body+"(the newest "+strconv.Itoa(shown)+" of "+strconv.Itoa(c.Total.Calls)+" shown)", w))
	}
	return lines
}

// labelled is a "why: …" paragraph wrapped under its label; nothing for empty text.
func labelled(prefix, name, text string, w int) []string {
	if clean(text) == "" {
		return nil
	}
	first := prefix + name + ": "
	return wrap(text, w, first, prefix+strings.Repeat(" ", len(name)+2))
}

// evidence is one cited call: when, where and how long first, so a cut only ever shortens what ran;
// then what came back, quoted.
func evidence(e *view.Evidence, w int) []string {
	agent := ""
	if e.Agent != nil {
		agent = clean(*e.Agent)
	}
	line := "   - " + join("turn "+strconv.Itoa(e.Turn), agent, msOf(float64(e.Ms)), clean(e.What))
	lines := []string{cut(line, w)}
	if head := clean(e.Head); head != "" {
		// Cut inside the quotes, so the closing one survives.
		lines = append(lines, `     "`+cut(head, w-7)+`"`)
	}
	return lines
}

// decided is the DECIDED section, newest first: the choice, the behaviour, then what it is worth,
// how often it was ignored, how many subagents it reached, and the user's own note.
func decided(rows []view.DecidedRow, w int) []string {
	lines := []string{"DECIDED (" + strconv.Itoa(len(rows)) + ")"}
	for i := range rows {
		d := &rows[i]
		lines = append(lines, wrap(choiceOf(d.Choice)+sep+d.Kind, w, "- ", "  ")...)
		worth := ""
		if d.SavedPct != nil && *d.SavedPct > 0 {
			worth = "~" + num(*d.SavedPct) + "% per repeat"
			if d.Settled {
				worth = "~" + num(*d.SavedPct) + "% saved"
			}
		}
		ignored, sent := "", ""
		if d.Ignored > 0 {
			ignored = "relapsed ×" + strconv.Itoa(d.Ignored) // the agent went back to it; "ignored" is the person's choice
		}
		if d.Sent > 0 {
			sent = "sent ×" + strconv.Itoa(d.Sent)
		}
		if figures := parts(worth, ignored, sent); len(figures) > 0 {
			lines = append(lines, wrapParts(figures, w, "  ", "  ")...)
		}
		if d.Instruction != nil {
			lines = append(lines, labelled("  ", "your note", *d.Instruction, w)...)
		}
	}
	return lines
}

// choiceOf is a decision in the words ContextSaver's toasts used for it.
func choiceOf(c state.Choice) string {
	switch c {
	case state.Ignore:
		return "ignored"
	case state.Fix:
		return "fixed"
	case state.FixWithNote:
		return "fixed with your note"
	}
	return clean(string(c))
}
