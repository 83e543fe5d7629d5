package textview

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/saverd/saverd/state/rules"
)

const (
	// ruleIndent is the indent under a rule's number; textBar opens each line of the text a rule writes,
	// textCont the rest of a line too long for the pane.
	ruleIndent = "   "
	textBar    = ruleIndent + "│ "
	textCont   = ruleIndent + "┆ "
	tabStop    = 4
)

// rulesToWrite is RULES TO WRITE, largest saving first as the model orders them, numbered as
// `/saver write <n>` takes them: the title, its kind and saving, the file it lands in (cut from the
// left, since a path's end names it) and where in it, then the exact text it adds, every line of it,
// so nothing is written that the person has not been shown. A rule a file already holds is listed after
// them under its own heading, saying where, and not counted as one to write.
func rulesToWrite(arts []rules.Artifact, w int, command string) []string {
	fresh := rules.Pending(arts)
	var lines []string
	if len(fresh) > 0 {
		lines = append(lines, "RULES TO WRITE ("+strconv.Itoa(len(fresh))+")")
	}
	for i := range fresh {
		lines = append(lines, ruleLines(&fresh[i], i+1, w)...)
	}
	if len(fresh) > 0 {
		lines = append(lines, wrapParts([]string{command + " write " + writeHint(len(fresh)) + " writes it", command + " undo takes the last write back"}, w, "", "")...)
	}
	var already []rules.Artifact
	for _, a := range arts {
		if a.Already != "" {
			already = append(already, a)
		}
	}
	if len(already) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "RULES ALREADY WRITTEN ("+strconv.Itoa(len(already))+")")
	}
	for i := range already {
		a := &already[i]
		lines = append(lines, wrap(a.Title, w, "- ", "  ")...)
		lines = append(lines, wrap("already in "+clean(a.Already), w, "  ", "  ")...)
	}
	return lines
}

// writeHint is the number to type: 1 for a lone rule, else which numbers there are.
func writeHint(n int) string {
	if n == 1 {
		return "1"
	}
	return "<n> (1–" + strconv.Itoa(n) + ")"
}

// ruleLines is one rule to write: its number and title, its figures, its file, and its text.
func ruleLines(a *rules.Artifact, n int, w int) []string {
	lines := wrap(a.Title, w, strconv.Itoa(n)+". ", ruleIndent)
	saves := ""
	if a.SavingPct > 0 {
		saves = "saves ~" + num(a.SavingPct) + "% of context"
		if basis := clean(a.Basis); basis != "" {
			saves += " (" + basis + ")"
		}
	}
	lines = append(lines, wrapParts([]string{clean(string(a.Kind)), clean(a.Mode), saves}, w, ruleIndent, ruleIndent)...)
	text, where := rules.Shown(*a)
	if p := clean(a.Path); p != "" {
		lines = append(lines, ruleIndent+cutLeft(p, w-len(ruleIndent)))
	}
	lines = append(lines, wrap(where+":", w, ruleIndent, ruleIndent)...)
	return append(lines, verbatim(text, w, textBar, textCont)...)
}

// verbatim is text line by line as it is written, each line after prefix and broken where the pane
// ends (after its last space that fits, else between characters) rather than re-flowed, a continued
// line after cont; so its spacing shows as it is: a tab is spaces to the next stop, and a control
// character (which a rule's text never holds once cleaned) is drawn as �, never sent.
func verbatim(text string, w int, prefix, cont string) []string {
	room := max(1, w-max(width(prefix), width(cont)))
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		lead := prefix
		for _, seg := range breakLine(expandTabs(line), room) {
			lines = append(lines, strings.TrimRight(lead+seg, " "))
			lead = cont
		}
	}
	return lines
}

// expandTabs draws a line's tabs as spaces to the next tab stop and its control characters as �.
func expandTabs(line string) string {
	if !strings.ContainsFunc(line, unicode.IsControl) {
		return line
	}
	var b strings.Builder
	used := 0
	for _, r := range line {
		switch {
		case r == '\t':
			pad := tabStop - used%tabStop
			b.WriteString(strings.Repeat(" ", pad))
			used += pad
			continue
		case unicode.IsControl(r):
			r = '\uFFFD'
		}
		b.WriteRune(r)
		used += runeWidth(r)
	}
	return b.String()
}

// breakLine splits a line into pieces of at most room columns, each ending after its last space when
// it has one past its start; joined, the pieces are the line.
func breakLine(line string, room int) []string {
	var out []string
	for width(line) > room {
		used, at, space := 0, 0, -1
		for i, r := range line {
			rw := runeWidth(r)
			if used+rw > room && i > 0 {
				at = i
				break
			}
			used += rw
			if r == ' ' && i > 0 {
				space = i + 1
			}
		}
		if space > 0 {
			at = space
		}
		out = append(out, line[:at])
		line = line[at:]
	}
	return append(out, line)
}
