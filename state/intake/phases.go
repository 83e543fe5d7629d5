package intake

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Phases: the titles a Workflow script declares in its `meta = { phases: [...] }` literal, read as
// tokens and never run.
//
// Two fixes over ContextSaver (protocol.md, "Differences from ContextSaver"): a type annotation between `meta` and `=`
// (`const meta: Meta = {...}`) is read past, and escapes in string literals are decoded (`\n`, `\t`,
// `\r`, `\b`, `\f`, `\v`, `\0`, `\xHH`, `\uHHHH`, `\u{…}`, a line continuation; any other escaped
// character is itself) where ContextSaver kept the letter (`'new\nline'` read as `newnline`).

type scriptTokKind uint8

const (
	scriptString scriptTokKind = iota
	scriptWord
	scriptPunct
)

type scriptTok struct {
	kind scriptTokKind
	text string
}

// scriptWordMax is the longest word token, as ContextSaver's lexer read words 200 characters at a time.
const scriptWordMax = 200

// PhasesOf is the phase titles a Workflow script's `meta` literal declares, in order: a bare string
// element or an object's `title` string. It is empty when there is no readable `meta.phases` (no meta,
// a literal left open, an element of any other shape).
func PhasesOf(script string) []string {
	toks := lexScript(script)
	open := metaLiteral(toks)
	if open < 0 {
		return []string{}
	}
	end := scriptCloseOf(toks, open)
	if end < 0 {
		return []string{}
	}
	value := scriptValueAt(toks, open, end, "phases")
	if value < 0 || value >= len(toks) || toks[value].text != "[" {
		return []string{}
	}
	arrEnd := scriptCloseOf(toks, value)
	if arrEnd < 0 {
		return []string{}
	}
	titles, ok := scriptTitles(toks, value, arrEnd)
	if !ok {
		return []string{}
	}
	return titles
}

// lexScript reads source as tokens, comments skipped, stopping at the first string or block comment
// left open.
func lexScript(src string) []scriptTok {
	var toks []scriptTok
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case isJSSpaceRune(r):
			i += size
		case strings.HasPrefix(src[i:], "//"):
			if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
				i += nl
			} else {
				i = len(src)
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += 2 + end + 2
		case r == '\'' || r == '"' || r == '`':
			text, next, ok := scriptStringLit(src, i)
			if !ok {
				return toks
			}
			toks = append(toks, scriptTok{scriptString, text})
			i = next
		case isScriptWordByte(src[i]):
			j := i
			for j < len(src) && j-i < scriptWordMax && isScriptWordByte(src[j]) {
				j++
			}
			toks = append(toks, scriptTok{scriptWord, src[i:j]})
			i = j
		default:
			toks = append(toks, scriptTok{scriptPunct, src[i : i+size]})
			i += size
		}
	}
	return toks
}

func isScriptWordByte(c byte) bool { return c == '_' || c == '$' || asciiLetter(c) || asciiDigit(c) }

// isJSSpaceRune is JavaScript's \s.
func isJSSpaceRune(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// scriptStringLit decodes the literal whose quote is at src[i]; ok is false when it never closes.
func scriptStringLit(src string, i int) (string, int, bool) {
	quote := src[i]
	var b strings.Builder
	for j := i + 1; j < len(src); {
		c := src[j]
		switch {
		case c == quote:
			return b.String(), j + 1, true
		case c == '\\':
			if j+1 >= len(src) {
				return "", 0, false
			}
			j = scriptEscape(src, j+1, &b)
		default:
			b.WriteByte(c)
			j++
		}
	}
	return "", 0, false
}

// scriptEscapes are the one-character escapes; an escaped newline is a line continuation.
var scriptEscapes = map[byte]string{'n': "\n", 't': "\t", 'r': "\r", 'b': "\b", 'f': "\f", 'v': "\v", '0': "\x00", '\n': ""}

// scriptEscape writes the character the escape at src[j] (just past the backslash) stands for and
// returns the index after it.
func scriptEscape(src string, j int, b *strings.Builder) int {
	c := src[j]
	if s, ok := scriptEscapes[c]; ok {
		b.WriteString(s)
		return j + 1
	}
	switch c {
	case '\r': // a line continuation, CRLF or CR
		if j+1 < len(src) && src[j+1] == '\n' {
			return j + 2
		}
		return j + 1
	case 'x':
		if r, ok := scriptHexRune(src, j+1, 2); ok {
			b.WriteRune(r)
			return j + 3
		}
	case 'u':
		if r, next, ok := scriptUnicodeEscape(src, j); ok {
			b.WriteRune(r)
			return next
		}
	}
	r, size := utf8.DecodeRuneInString(src[j:])
	if r != 0x2028 && r != 0x2029 { // escaped line separators are continuations too
		b.WriteString(src[j : j+size])
	}
	return j + size
}

// scriptUnicodeEscape reads `uHHHH` or `u{H…}` at src[j]; a high surrogate followed by `\uLOW` is one
// character, a lone surrogate is U+FFFD (Go strings hold no half characters).
func scriptUnicodeEscape(src string, j int) (rune, int, bool) {
	if j+1 < len(src) && src[j+1] == '{' {
		end := strings.IndexByte(src[j+2:], '}')
		if end < 1 {
			return 0, 0, false
		}
		n, err := strconv.ParseUint(src[j+2:j+2+end], 16, 32)
		if err != nil || n > utf8.MaxRune {
			return 0, 0, false
		}
		return runeOrReplacement(rune(n)), j + 2 + end + 1, true
	}
	r, ok := scriptHexRune(src, j+1, 4)
	if !ok {
		return 0, 0, false
	}
	next := j + 5
	if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(src[next:], `\u`) {
		if lo, ok := scriptHexRune(src, next+2, 4); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), next + 6, true
		}
	}
	return runeOrReplacement(r), next, true
}

func runeOrReplacement(r rune) rune {
	if !utf8.ValidRune(r) {
		return utf8.RuneError
	}
	return r
}

// scriptHexRune reads exactly n hex digits at src[at].
func scriptHexRune(src string, at, n int) (rune, bool) {
	if at+n > len(src) {
		return 0, false
	}
	v, err := strconv.ParseUint(src[at:at+n], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// metaLiteral is the index of the `{` that opens the first `meta = {` (or `meta: Type = {`), or -1.
func metaLiteral(toks []scriptTok) int {
	for i := range toks {
		if toks[i].text != "meta" {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].text == ":" {
			if j = afterAnnotation(toks, j+1); j < 0 {
				continue
			}
		}
		if j+1 < len(toks) && toks[j].text == "=" && toks[j+1].text == "{" {
			return j + 1
		}
	}
	return -1
}

// afterAnnotation is the index of the `=` that ends a type annotation starting at toks[j], or -1 when
// what follows is no annotation (a `,` or `;` or an unbalanced close at its own level: an object key).
func afterAnnotation(toks []scriptTok, j int) int {
	depth := 0
	for ; j < len(toks); j++ {
		t := toks[j]
		if t.kind != scriptPunct {
			continue
		}
		switch t.text {
		case "{", "[", "(", "<":
			depth++
		case "}", "]", ")", ">":
			if depth == 0 {
				return -1
			}
			depth--
		case ",", ";":
			if depth == 0 {
				return -1
			}
		case "=":
			if j+1 < len(toks) && toks[j+1].text == ">" { // `=>` in a function type
				j++
				continue
			}
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

var scriptOpen = map[string]string{"{": "}", "[": "]", "(": ")"}

func isScriptClose(s string) bool { return s == "}" || s == "]" || s == ")" }

// scriptCloseOf is the index just past the bracket that closes the one at toks[at], or -1 when it never closes.
func scriptCloseOf(toks []scriptTok, at int) int {
	var stack []string
	for i := at; i >= 0 && i < len(toks); i++ {
		t := toks[i]
		if t.kind != scriptPunct {
			continue
		}
		if c, ok := scriptOpen[t.text]; ok {
			stack = append(stack, c)
		} else if len(stack) > 0 && t.text == stack[len(stack)-1] {
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// scriptValueAt is the index of the value of key name in the object whose `{` is at toks[at], or -1.
func scriptValueAt(toks []scriptTok, at, end int, name string) int {
	depth := 0
	for i := at + 1; i < end-1 && i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == scriptPunct && scriptOpen[t.text] != "":
			depth++
		case t.kind == scriptPunct && isScriptClose(t.text):
			depth--
		case depth == 0 && t.text == name && t.kind != scriptPunct && i+1 < len(toks) && toks[i+1].text == ":":
			return i + 2
		}
	}
	return -1
}

// scriptTitles reads the phases array at toks[at]; ok is false when an element is neither a string nor an
// object with a string title.
func scriptTitles(toks []scriptTok, at, end int) ([]string, bool) {
	titles := []string{}
	for i := at + 1; i < end-1 && i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == scriptString:
			titles = append(titles, t.text)
			i++
		case t.text == "{":
			close := scriptCloseOf(toks, i)
			value := scriptValueAt(toks, i, close, "title")
			if value < 0 || value >= len(toks) || toks[value].kind != scriptString {
				return nil, false
			}
			titles = append(titles, toks[value].text)
			i = close
		default:
			return nil, false
		}
		if i < len(toks) && toks[i].text == "," {
			i++
		}
	}
	return titles, true
}
