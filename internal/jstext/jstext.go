// Package jstext measures, cuts, orders and prints text as ContextSaver's JavaScript does, so saverd's
// output matches it to the character: lengths and cuts in UTF-16 code units, one UTF-16 comparator
// (Less16, the order of JavaScript's default sort), numbers as JavaScript prints them, durations and
// thousands as the pane writes them, and JSON as JSON.stringify writes it. Everything here is pure.
package jstext

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	json "github.com/segmentio/encoding/json"
)

// Text rules. ContextSaver measured strings in UTF-16 code units and cut them there, which can leave half
// a surrogate pair. Here lengths are still counted in UTF-16 units (Len16), so every cap and every
// `chars` figure agrees with ContextSaver's, but every cut (Cut16) stops before a character that would
// not fit whole: the output is always valid UTF-8. Whitespace is Go's unicode.IsSpace (which includes
// NBSP and U+0085 but not U+FEFF); lower-casing is Go's unicode.ToLower, one rune to one rune.

// Len16 is the length of s in UTF-16 code units, the unit ContextSaver's `.length` counts.
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

// FitWords is text cut to n UTF-16 units at a word's end, with … after it: a behaviour quoted back reads
// as words, never "after every e…". A first word longer than half of n is cut inside, as Fit does.
func FitWords(text string, n int) string {
	if Len16(text) <= n {
		return text
	}
	head := Cut16(text, n-1)
	if next, _ := utf8.DecodeRuneInString(text[len(head):]); !unicode.IsSpace(next) {
		if i := strings.LastIndexFunc(head, unicode.IsSpace); Len16(head[:max(i, 0)]) > n/2 {
			head = head[:i]
		}
	}
	return strings.TrimRightFunc(head, unicode.IsSpace) + "…"
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

// AppendJSON appends v as JSON.stringify writes it: JavaScript's string escaping and number form,
// non-finite numbers as null. omit names top-level keys left out; sorted orders object keys by Less16
// (else they come in map order). A Go value of any other type goes through encoding/json first.
func AppendJSON(b []byte, v any, omit []string, sorted bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return AppendJSONString(b, x)
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		if f, ok := NumberOf(x); ok {
			return append(b, JSNumber(f)...)
		}
		return append(b, "null"...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSON(b, e, nil, sorted)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, e)
		}
		return append(b, ']')
	case map[string]any:
		return appendJSObject(b, x, omit, sorted)
	}
	// Any other Go value a caller built: through encoding/json and back, then as above.
	raw, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	back, err := DecodeJSON(raw)
	if err != nil {
		return append(b, "null"...)
	}
	return AppendJSON(b, back, omit, sorted)
}

// appendJSObject appends m as a JSON object, for AppendJSON.
func appendJSObject(b []byte, m map[string]any, omit []string, sorted bool) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(omit, k) {
			keys = append(keys, k)
		}
	}
	if sorted {
		sort.Slice(keys, func(i, j int) bool { return Less16(keys[i], keys[j]) })
	}
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, k)
		b = append(b, ':')
		b = AppendJSON(b, m[k], nil, sorted)
	}
	return append(b, '}')
}

// Less16 orders strings by UTF-16 code units, as JavaScript's default sort does.
func Less16(a, b string) bool {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit16(ra), firstUnit16(rb)
			if ua != ub {
				return ua < ub
			}
			return ra < rb // same high surrogate: the low surrogates order as the runes do
		}
		a, b = a[na:], b[nb:]
	}
	return a == "" && b != ""
}

// firstUnit16 is the first UTF-16 code unit of r.
func firstUnit16(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

const jsHexDigits = "0123456789abcdef"

// AppendJSONString quotes s as JSON.stringify does: only ", \ and control characters are escaped.
// Invalid UTF-8 (which JavaScript strings cannot hold) becomes U+FFFD, so the output is valid UTF-8.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b = append(b, '\\', '"')
			case c == '\\':
				b = append(b, '\\', '\\')
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', jsHexDigits[c>>4], jsHexDigits[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// DecodeJSON decodes one JSON value with numbers kept as json.Number; trailing data is an error.
func DecodeJSON(raw []byte) (any, error) {
	var v any
	rest, err := json.Parse(raw, &v, json.UseNumber)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// NumberOf is v as a finite number: a json.Number from the wire or any Go number a caller built.
func NumberOf(v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case json.Number:
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil && !isFloatRangeErr(err) {
			return 0, false
		}
		f = x
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case int32:
		f = float64(n)
	case uint:
		f = float64(n)
	case uint64:
		f = float64(n)
	case uint32:
		f = float64(n)
	default:
		return 0, false
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

func isFloatRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Round is JavaScript's Math.round: halves round up, toward +Inf.
func Round(x float64) float64 { return math.Floor(x + 0.5) }
