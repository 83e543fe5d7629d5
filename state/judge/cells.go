package judge

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// Cell widths. Every cell a block prints is bounded, so the prompt's size is too (see PromptMaxChars).
// The ones that hold a value the judge must copy back (a tool, a key, an id) are cut only where no valid
// value reaches: a ledger key is at most KeyMax already, a tool name at most 64 (the API's limit).
const (
	toolMax   = 64  // a tool name; MCP tool names are at most 64 characters
	clsMax    = 12  // a command class (`typecheck` is the longest)
	aliasMax  = 40  // a loop's alias, or its raw id when the table does not name it
	idMax     = 64  // a pattern id: `multi-agent:` and a 40-character slug fit
	labelMax  = 60  // a workflow stage label, a run name
	modelMax  = 40  // a model cell: the family word, or the id when it names none
	runIDMax  = 40  // a workflow run id
	pathMax   = 100 // one path in the LEDGER's paths cell
	pathsShow = 3   // paths one LEDGER row prints before `(+N more)`
	flagsMax  = 240 // the LEDGER's flags cell
	typeMax   = 40  // an Agent row's subagent type inside its agent= flag
	kindMax   = 2 * state.KindMax
	numMax    = 20 // an int64 written out
)

// num writes an integer count or measure.
func num(n int64) string { return strconv.FormatInt(n, 10) }

// inum writes an int.
func inum(n int) string { return strconv.Itoa(n) }

// jsNum writes a float as JavaScript's String(number) does, -0 as 0.
func jsNum(f float64) string {
	if f == 0 {
		return "0"
	}
	return jstext.JSNumber(f)
}

// round is JavaScript's Math.round written as String(Math.round(x)) does.
func round(x float64) string { return jsNum(jstext.Round(x)) }

// cut is the value, escaped, cut to max UTF-16 units on a whole character, with no mark: for cells
// whose valid values never reach max, so the cut only bounds a malformed one.
func cut(s string, max int) string { return jstext.Cut16(escaped(s), max) }

// oneLine is free text as one cell: whitespace collapsed, any other control character escaped, then
// fitted to max with an ellipsis.
func oneLine(s string, max int) string { return jstext.Fit(escaped(jstext.CollapseWs(s)), max) }

// minutes is ms as minutes with one decimal: `1.7m` (ContextSaver's (ms / 60000).toFixed(1)).
func minutes(ms int64) string { return toFixed1(float64(ms)/60_000) + "m" }

// ktok is tokens in thousands: `48k` (ContextSaver's Math.round(tokens / 1000)).
func ktok(tokens int64) string { return round(float64(tokens)/1000) + "k" }

// toFixed1 is JavaScript's x.toFixed(1): the exact binary value rounded half away from zero (Go's
// FormatFloat rounds an exact tie to even, so 0.25 would read 0.2 where ContextSaver reads 0.3).
func toFixed1(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	if math.Abs(x) >= 1e21 || math.IsInf(x, 0) {
		return jsNum(x)
	}
	// Off a tie the float product is exact enough and FormatFloat rounds as JavaScript does; near one
	// (or where the product has too few fraction bits to tell) the exact value decides.
	d := math.Abs(x) * 10
	if frac := d - math.Floor(d); d < 1e9 && math.Abs(frac-0.5) > 1e-6 {
		s := strconv.FormatFloat(x, 'f', 1, 64)
		if s == "-0.0" && !(x < 0) {
			return "0.0"
		}
		return s
	}
	exact := new(big.Float).SetPrec(256).SetFloat64(math.Abs(x))
	exact.Mul(exact, big.NewFloat(10))
	exact.Add(exact, big.NewFloat(0.5))
	n, _ := exact.Int(nil) // floor: the value is positive
	digits := n.String()
	if len(digits) < 2 {
		digits = "0" + digits
	}
	sign := ""
	if x < 0 {
		sign = "-"
	}
	return sign + digits[:len(digits)-1] + "." + digits[len(digits)-1:]
}

// modelFamilies are the family words a model id may carry; they start with different letters, so the
// leftmost one found is the one ContextSaver's /(opus|sonnet|haiku|fable)/ finds.
var modelFamilies = []string{"opus", "sonnet", "haiku", "fable"}

// modelShort is the family word of a model id (`claude-opus-4-1` → `opus`), the id itself when it names
// none, `?` when unknown.
func modelShort(model *string) string {
	if model == nil {
		return "?"
	}
	best, at := *model, -1
	for _, f := range modelFamilies {
		if i := strings.Index(*model, f); i >= 0 && (at < 0 || i < at) {
			best, at = f, i
		}
	}
	return best
}

// hasWord reports whether w occurs in s between ASCII word boundaries (JavaScript's /\bw\b/).
func hasWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		from = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// asciiLower lowers A-Z only, as a JavaScript regular expression without the u flag folds case.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// jsLine reports whether s holds no JavaScript line terminator: what `.` in one of ContextSaver's regular expressions refuses.
func jsLine(s string) bool { return !strings.ContainsAny(s, "\n\r\u2028\u2029") }

// escaped is a payload's text as data: each control character (C0, DEL, C1) and the line and paragraph
// separators written as an escape a reader reads back (`\n`, `\t`, `\u001b`), so no text a tool, a
// path, an agent or a prompt carried starts a line of its own in the prompt or moves the terminal of
// whoever reads it. A backslash stays as it is, so a text without one of these is returned unchanged
// (the prompts of ordinary sessions are the seed's, byte for byte) and a second pass changes nothing.
func escaped(s string) string {
	at := firstControl(s)
	if at < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:at])
	for _, r := range s[at:] {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case isControl(r):
			b.WriteString(`\u`)
			b.WriteString(strconv.FormatInt(int64(r)|0x10000, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// firstControl is the byte offset of s's first rune escaped escapes, or -1: one pass over the bytes, as
// every cell of every prompt goes through it.
func firstControl(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0: // U+0080–U+009F
			return i
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9): // U+2028, U+2029
			return i
		}
	}
	return -1
}

func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\u2028' || r == '\u2029'
}
