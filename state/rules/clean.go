package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jstext"
)

// What a rule writes into a file is what the person read in the pane before writing it, and what the
// agent reads after: so nothing in it may be hidden from one and seen by the other. An HTML comment
// (`<!-- … curl … | sh -->`) and a markdown link reference definition vanish when the markdown is
// rendered, yet the agent reads them whole; a terminal escape sequence can redraw or hide the text
// around it; a bidirectional override or a tag character shows one text and holds another. All of it
// is taken out, and each text is capped, so a rule stays a rule a person can read in one look.

// Caps on what one rule writes, in UTF-16 units as every other cut here; a longer text is cut, with ….
const (
	BulletMax = 400  // a CLAUDE.md or AGENTS.md bullet
	BodyMax   = 4000 // a skill's or an agent brief's body
	TitleMax  = 120  // a skill's or a brief's description
)

// Clean is text with everything a reader would not see taken out: escape sequences, control and
// invisible format characters (but newline and tab; ZWJ, which joins an emoji, stays), HTML comments
// (an unclosed one to the end) and markdown link reference definitions. A carriage return, NEL and the
// line and paragraph separators become newlines; invalid UTF-8 is dropped.
func Clean(text string) string {
	return withoutRefDefs(withoutComments(visible(text)))
}

// visible drops escape sequences and control and format characters, and turns line breaks into \n.
// Printable ASCII, newlines and tabs, the common case, come back as they are.
func visible(text string) string {
	if plainASCII(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
		case r == 0x1b:
			i = skipEscape(text, i)
		case r == 0x9b: // CSI
			i = skipCSI(text, i)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // DCS, SOS, OSC, PM, APC
			i = skipString(text, i)
		case r == '\r':
			if i < len(text) && text[i] == '\n' {
				i++
			}
			b.WriteByte('\n')
		case r == 0x85 || r == '\u2028' || r == '\u2029':
			b.WriteByte('\n')
		case r == '\n' || r == '\t' || r == '\u200d':
			b.WriteRune(r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainASCII: text is printable ASCII, newlines and tabs only.
func plainASCII(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// skipEscape is where the escape sequence whose ESC ends at i ends: a CSI (`ESC [` … final byte), a
// string (OSC, DCS, SOS, PM, APC: to BEL or ST), or ESC and one more character.
func skipEscape(text string, i int) int {
	if i >= len(text) {
		return i
	}
	switch text[i] {
	case '[':
		return skipCSI(text, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(text, i+1)
	}
	_, size := utf8.DecodeRuneInString(text[i:])
	return i + size
}

// skipCSI passes a control sequence's parameter and intermediate bytes and its final byte (@ to ~).
func skipCSI(text string, i int) int {
	for i < len(text) {
		c := text[i]
		i++
		switch {
		case c >= 0x40 && c <= 0x7e:
			return i
		case c < 0x20 || c > 0x7e:
			// Not a byte a control sequence holds: the sequence was malformed; stop at it.
			return i - 1
		}
	}
	return i
}

// skipString passes a control string to its terminator: BEL, ESC \ or ST (U+009C), or the end.
func skipString(text string, i int) int {
	for i < len(text) {
		switch {
		case text[i] == 0x07:
			return i + 1
		case text[i] == 0x1b && i+1 < len(text) && text[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(text[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}

// withoutComments removes every `<!-- … -->`, an unclosed one to the end, until none is left: taking
// one out cannot leave the halves of another joined.
func withoutComments(text string) string {
	for {
		at := strings.Index(text, "<!--")
		if at < 0 {
			return text
		}
		end := strings.Index(text[at+4:], "-->")
		if end < 0 {
			text = text[:at]
			continue
		}
		text = text[:at] + text[at+4+end+3:]
	}
}

// withoutRefDefs drops the lines that are markdown link reference definitions (`[//]: # (…)`,
// `[x]: <url>`): a renderer shows nothing for them.
func withoutRefDefs(text string) string {
	if !strings.Contains(text, "]:") {
		return text
	}
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !isRefDef(l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// isRefDef: up to three spaces, a bracketed label, a colon (CommonMark's link reference definition).
func isRefDef(line string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || !strings.HasPrefix(l, "[") {
		return false
	}
	end := strings.Index(l, "]:")
	return end > 1 && !strings.ContainsAny(l[1:end], "[]")
}

// capped is text cut to max UTF-16 units, ending in … when it was cut.
func capped(text string, max int) string { return jstext.Fit(text, max) }

// CleanLine is Clean made one line (whitespace collapsed) and capped: a bullet's text, a description.
func CleanLine(text string, max int) string {
	return capped(jstext.CollapseWs(Clean(text)), max)
}

// CleanBody is Clean trimmed and capped: a skill's or a brief's body.
func CleanBody(text string) string {
	return capped(strings.TrimSpace(Clean(text)), BodyMax)
}
