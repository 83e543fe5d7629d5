package textview

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jstext"
)

// ellipsis marks a cut; it is one column wide.
const ellipsis = "…"

// wide lists the ranges drawn two columns wide: East Asian Wide and Fullwidth blocks and the emoji
// presentation ranges, sorted.
var wide = [][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0},
	{0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F},
	{0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5},
	{0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728},
	{0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
	{0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
	{0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
	{0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F},
	{0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1AFF0, 0x1B2FF},
	{0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
	{0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
	{0x20000, 0x3FFFD},
}

// runeWidth is the columns r takes: 0, 1 or 2.
func runeWidth(r rune) int {
	if r < 0x300 {
		if r < 0x20 || (r >= 0x7F && r < 0xA0) {
			return 0
		}
		return 1
	}
	if (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0xAC00 && r <= 0xD7A3) {
		return 2 // the common CJK and Hangul blocks hold no combining marks: skip the table lookups
	}
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || (r >= 0x1160 && r <= 0x11FF) {
		return 0
	}
	lo, hi := 0, len(wide)
	for lo < hi {
		mid := (lo + hi) / 2
		switch {
		case r < wide[mid][0]:
			hi = mid
		case r > wide[mid][1]:
			lo = mid + 1
		default:
			return 2
		}
	}
	return 1
}

// width is the display columns s takes.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				n += runeWidth(r)
			}
			return n
		}
		if s[i] >= 0x20 && s[i] != 0x7F {
			n++
		}
	}
	return n
}

// clean makes model text one line: control characters become spaces, invalid UTF-8 becomes U+FFFD,
// whitespace collapses (Go's unicode.IsSpace, via state.CollapseWs).
func clean(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		var b strings.Builder
		b.Grow(len(s))
		for _, r := range s {
			if unicode.IsControl(r) {
				r = ' '
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	return jstext.CollapseWs(s)
}

// cut fits s into w columns, ending it with … when it had to be cut (never with a space or a
// dangling · separator before it).
func cut(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	n := 0
	for i, r := range s {
		rw := runeWidth(r)
		if n+rw > w-1 {
			return strings.TrimRightFunc(s[:i], func(r rune) bool { return r == '·' || unicode.IsSpace(r) }) + ellipsis
		}
		n += rw
	}
	return s
}

// cutLeft fits s into w columns by dropping its start: a path's end is the part that names it.
func cutLeft(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	runes := []rune(s)
	n, i := 0, len(runes)
	for i > 0 && n+runeWidth(runes[i-1]) <= w-1 {
		i--
		n += runeWidth(runes[i])
	}
	return ellipsis + string(runes[i:])
}

// wrap breaks text into lines of at most w columns: the first starts with first, the others with
// rest (a hanging indent). Words wider than a line are broken between characters.
func wrap(text string, w int, first, rest string) []string {
	var lines []string
	var line strings.Builder
	line.WriteString(first)
	used, empty := width(first), true
	flush := func() {
		lines = append(lines, line.String())
		line.Reset()
		line.WriteString(rest)
		used, empty = width(rest), true
	}
	for _, word := range strings.Fields(clean(text)) {
		ww := width(word)
		if !empty && used+1+ww > w {
			flush()
		}
		if empty && used+ww > w {
			// A word longer than a whole line: split it where the line ends.
			for _, r := range word {
				rw := runeWidth(r)
				if used+rw > w && !empty {
					flush()
				}
				line.WriteRune(r)
				used += rw
				empty = false
			}
			continue
		}
		if !empty {
			line.WriteByte(' ')
			used++
		}
		line.WriteString(word)
		used += ww
		empty = false
	}
	if empty && len(lines) > 0 {
		return lines
	}
	if empty {
		return []string{strings.TrimRight(first, " ")}
	}
	return append(lines, line.String())
}

// wrapParts lays parts out joined by " · ", breaking lines only between parts, so a figure is never
// split from its unit; a part wider than a whole line is word-wrapped.
func wrapParts(ps []string, w int, first, rest string) []string {
	ps = parts(ps...)
	if len(ps) == 0 {
		return []string{strings.TrimRight(first, " ")}
	}
	var lines []string
	line, used, empty := first, width(first), true
	for _, p := range ps {
		pw := width(p)
		if !empty && used+width(sep)+pw > w {
			lines = append(lines, line)
			line, used, empty = rest, width(rest), true
		}
		if empty && used+pw > w {
			sub := wrap(p, w, line, rest)
			lines = append(lines, sub[:len(sub)-1]...)
			line = sub[len(sub)-1]
			used, empty = width(line), false
			continue
		}
		if !empty {
			line += sep
			used += width(sep)
		}
		line += p
		used += pw
		empty = false
	}
	return append(lines, line)
}
