package cli

import (
	"strings"
	"unicode/utf8"
)

// Help's layout: lines at most width columns; a flag's help starts at flagCol.
const (
	width   = 100
	flagCol = 21
)

// HelpText is the command's help: its synopsis and what it does, more about it, and its flags.
func (c *Command) HelpText() string {
	if c.Help != "" {
		return c.Help
	}
	var b strings.Builder
	b.WriteString("Usage:\n")
	forms := c.Usage
	if len(forms) == 0 {
		forms = []string{"[flags]"}
	}
	for _, form := range forms {
		b.WriteString("  " + prog + " " + c.Name + " " + form + "\n")
	}
	wrap(&b, c.Short, "      ")
	if c.Long != "" {
		for _, para := range strings.Split(c.Long, "\n\n") {
			b.WriteString("\n")
			wrap(&b, para, "")
		}
	}
	if c.Flags != nil && len(c.Flags.items) > 0 {
		b.WriteString("\nFlags:\n")
		for _, it := range c.Flags.items {
			writeFlag(&b, it)
		}
	}
	return b.String()
}

// writeFlag writes one flag's line (its help from flagCol, on the next line when its name is longer
// than the column allows) or a note.
func writeFlag(b *strings.Builder, it item) {
	indent := strings.Repeat(" ", flagCol)
	if it.name == "" {
		wrap(b, it.help, indent)
		return
	}
	left := "  --" + it.name
	if it.arg != "" {
		left += " " + it.arg
	}
	if utf8.RuneCountInString(left) >= flagCol {
		b.WriteString(left + "\n")
		wrap(b, it.help, indent)
		return
	}
	var rest strings.Builder
	wrap(&rest, it.help, indent)
	b.WriteString(left + strings.Repeat(" ", flagCol-utf8.RuneCountInString(left)) + strings.TrimPrefix(rest.String(), indent))
}

// Overview is the program's help: what it is, its commands with what each does, and where each
// command's own help is.
func (p *Program) Overview() string {
	var b strings.Builder
	wrap(&b, p.Intro, "")
	b.WriteString("\nUsage:\n  " + prog + " COMMAND [arguments] [flags]   (no COMMAND: " + p.Default + ")\n\nCommands:\n")
	all := p.All()
	col := 0
	for _, c := range all {
		col = max(col, len(c.Name))
	}
	for _, c := range all {
		pad := strings.Repeat(" ", col-len(c.Name)+2)
		var rest strings.Builder
		indent := strings.Repeat(" ", 2+col+2)
		wrap(&rest, c.Short, indent)
		b.WriteString("  " + c.Name + pad + strings.TrimPrefix(rest.String(), indent))
	}
	b.WriteString("\n")
	wrap(&b, prog+" help COMMAND (or "+prog+" COMMAND -h) says more of one, with its flags; "+prog+" version prints the version.", "")
	return b.String()
}

// wrap writes text in lines of at most width columns, each opening with indent, broken between words
// (a word longer than a line stands alone); a newline in text starts a line.
func wrap(b *strings.Builder, text, indent string) {
	for _, line := range strings.Split(text, "\n") {
		room := width - utf8.RuneCountInString(indent)
		cur := ""
		for _, w := range strings.Fields(line) {
			if cur != "" && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > room {
				b.WriteString(indent + cur + "\n")
				cur = ""
			}
			if cur != "" {
				cur += " "
			}
			cur += w
		}
		b.WriteString(strings.TrimRight(indent+cur, " ") + "\n")
	}
}
