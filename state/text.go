package state

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text rules. The seed measured strings in UTF-16 code units and cut them there, which can leave half
// a surrogate pair. Here lengths are still counted in UTF-16 units (Len16), so every cap and every
// `chars` figure agrees with the plugin's, but every cut (Cut16) stops before a character that would
// not fit whole: the output is always valid UTF-8. Whitespace is Go's unicode.IsSpace (which includes
// NBSP and U+0085 but not U+FEFF); lower-casing is Go's unicode.ToLower, one rune to one rune.

// Len16 is the length of s in UTF-16 code units, the unit the seed's `.length` counts.
func Len16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// Cut16 is the longest prefix of s at most n UTF-16 units long that ends on a whole character.
func Cut16(s string, n int) string {
	if n <= 0 {
		return ""
	}
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// CollapseWs collapses runs of whitespace (newlines included) to one space and trims.
func CollapseWs(s string) string {
	simple := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			simple = false
			break
		}
		sp := c == ' ' || (c >= '\t' && c <= '\r')
		if sp && (prevSpace || c != ' ') {
			simple = false
			break
		}
		prevSpace = sp
	}
	if simple && !prevSpace {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// Median of xs; 0 when there are none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 != 0 {
		return sorted[mid]
	}
	return (sorted[mid-1] + sorted[mid]) / 2
}

// Round is JavaScript's Math.round: halves round up, toward +Inf.
func Round(x float64) float64 { return math.Floor(x + 0.5) }

// PctOf is chars/4 as a percentage of window, one decimal; 0 for an unknown window.
func PctOf(chars float64, window int64) float64 {
	if window <= 0 {
		return 0
	}
	return Round(chars/4/float64(window)*1000) / 10
}

// Duration formats milliseconds as 11m, 3m 50s or 12s; a negative input reads as 0s.
func Duration(ms float64) string {
	s := int64(Round(math.Max(0, ms) / 1000))
	if s < 60 {
		return strconv.FormatInt(s, 10) + "s"
	}
	mins, secs := s/60, s%60
	if secs == 0 {
		return strconv.FormatInt(mins, 10) + "m"
	}
	return strconv.FormatInt(mins, 10) + "m " + strconv.FormatInt(secs, 10) + "s"
}

// Kilo formats a count short and rounded: 9.9k, 41k, 800. Negative counts read as 0 and fractions are
// rounded first, so 999.5 is 1k, never 999.5; a huge count is written out, never in exponent form.
func Kilo(n float64) string {
	n = Round(math.Max(0, n))
	switch {
	case n >= 10_000:
		return strconv.FormatFloat(Round(n/1000), 'f', -1, 64) + "k"
	case n >= 1000:
		return strconv.FormatFloat(Round(n/100)/10, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// Fit cuts text to cells UTF-16 units, ending it with … when cut and never with a space before it.
func Fit(text string, cells int) string {
	if Len16(text) <= cells {
		return text
	}
	return strings.TrimRightFunc(Cut16(text, cells-1), unicode.IsSpace) + "…"
}

// Short cuts text to max UTF-16 units and marks the cut with ….
func Short(text string, max int) string {
	if Len16(text) <= max {
		return text
	}
	return Cut16(text, max) + "…"
}

// Cell is a model's text quoted inside a one-line reason: whitespace collapsed, then cut to max.
func Cell(text string, max int) string { return Short(CollapseWs(text), max) }

// Slug is a kebab-case slug of at most forty characters. It is trimmed after the cut, so it never ends
// in a hyphen; it can be empty, and callers fall back to something else then.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > 40 {
		out = out[:40]
	}
	return strings.Trim(out, "-")
}

// InstructionOf wraps a user instruction in the standard ContextSaver prefix.
func InstructionOf(text string) string {
	return "Instruction from the user (via ContextSaver): " + text
}

// KillPrompt is what Fix sends for a habit: stop the behaviour, do the alternative.
func KillPrompt(p *StoredPattern) string {
	return "Stop this behaviour for the rest of the session: " + p.Kind + ". From now on: " + p.Alternative
}

// Unique keeps the first of each string, in order.
func Unique(xs []string) []string {
	out := make([]string, 0, len(xs))
	seen := make(map[string]bool, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Contains reports whether xs holds x.
func Contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// JSNumber writes f as JavaScript's String(number) does for the values a tool result carries.
func JSNumber(f float64) string {
	if f == 0 {
		return "0" // -0 too, as JavaScript prints it
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	if math.Abs(f) >= 1e21 || (f != 0 && math.Abs(f) < 1e-6) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		s = strings.Replace(s, "e+0", "e+", 1)
		return strings.Replace(s, "e-0", "e-", 1)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Ptr is a pointer to a copy of v, for the optional fields.
func Ptr[T any](v T) *T { return &v }

// Str is *p, or "" for nil.
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
