package intake

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading a Bash command for its ledger key and class.
//
// ContextSaver split a command on `&&`, `||` and `;` and cut its key at the first `|`, `<` or `>` wherever
// they stood, quotes included, and it read heredoc bodies as commands (protocol.md, "Differences from
// ContextSaver"). readShell scans the command once, the way the shell quotes it: single and double quotes,
// `$'…'` (where a backslash escapes), backslash escapes, `$(…)`, `$((…))` and backticks hide what they
// hold from the command around them; a heredoc's body (and its terminator line) is data and is dropped;
// a `#` comment's quotes open nothing. It returns the command with whitespace collapsed, as ContextSaver's
// key prints it, and the top-level tokens found in that text: words, chain operators, pipes and redirects.
//
// A cat whose output goes to a file writes, so its segment is other and the whole command (target
// included) is the key: a stdout redirect (`>`, `>>`, `>|`, `1>` or `01>` but not `10>`, `&>`, `&>>`,
// `>& file`) to anything but a /dev/ device, anywhere in its pipeline, or a later `tee` (or `sudo tee`)
// stage with a file operand. A segment's class is still read from the segment as typed (`npm test|x` is
// no `npm test `), as ContextSaver read it.
//
// Kept from ContextSaver on purpose: a newline is whitespace, not a separator (splitting on newlines would
// read heredoc bodies as commands), and a `#` comment runs only to the newline but its `&&`, `;`, `|`,
// `<` and `>` still count, as they did.

// shellTokKind is what one top-level token is.
type shellTokKind uint8

const (
	tokWord       shellTokKind = iota
	tokChain                   // && || ;
	tokPipe                    // | |&
	tokRedirect                // < > >> >| >& <& <> << <<- <<< &> &>> with an optional fd digit
	tokBackground              // a lone &
)

// shellTok is one token: its byte range in the collapsed text. A redirect's range starts at the fd
// digit written right before it (ContextSaver's `\d?`) or at the `&` of `&>`.
type shellTok struct {
	kind       shellTokKind
	start, end int
	out        bool // a redirect that sends standard output to its target
	dup        bool // a `>&`/`<&` form: a number target duplicates a descriptor, no file
}

// shellCmd is a command as the ledger reads it.
type shellCmd struct {
	text string // whitespace collapsed, heredoc bodies removed
	toks []shellTok
}

type frameKind uint8

const (
	frameSingle   frameKind = iota // '…'
	frameDouble                    // "…"
	frameSubst                     // $(…)
	frameArith                     // $((…))
	frameBacktick                  // `…`
	frameANSI                      // $'…': a backslash escapes, so \' does not end it
)

type shellFrame struct {
	kind  frameKind
	depth int // plain parentheses open inside a $(…) or $((…))
}

type heredocSpec struct {
	delim     string
	stripTabs bool // <<- : leading tabs of the terminator line are ignored
}

type shellScanner struct {
	raw          string
	out          []byte
	toks         []shellTok
	frames       []shellFrame
	pending      []heredocSpec // heredocs whose bodies start after the next newline
	pendingSpace bool          // whitespace seen and not yet written (collapsed to one space)
	word         int           // out offset where the current top-level word began; -1 outside a word
	wordStart    bool          // in code, the next character begins a word (a `#` there is a comment)
	comment      bool          // inside a # comment, until the next newline
	plainAt      int           // out offset of the last unquoted top-level byte written; -1 none
}

// readShell scans a raw Bash command (see the comment at the top of this file).
func readShell(raw string) shellCmd {
	raw = strings.ToValidUTF8(raw, "\uFFFD")
	// Room for about one token a word: most commands are a few words, and a token is 32 bytes.
	toks := min(16, 2+strings.Count(raw, " "))
	s := shellScanner{raw: raw, out: make([]byte, 0, len(raw)), toks: make([]shellTok, 0, toks), word: -1, wordStart: true, plainAt: -1}
	for i := 0; i < len(raw); {
		i = s.step(i)
	}
	s.endWord(len(s.out))
	text := raw // most commands read as they are typed: no copy then
	if string(s.out) != raw {
		text = string(s.out)
	}
	return shellCmd{text: text, toks: s.toks}
}

func (s *shellScanner) step(i int) int {
	if n := s.plainRun(i); n > i {
		return n
	}
	r, size := utf8.DecodeRuneInString(s.raw[i:])
	if unicode.IsSpace(r) {
		return s.space(i, r, size)
	}
	if s.comment {
		return s.commentChar(i, size)
	}
	if len(s.frames) == 0 {
		return s.codeChar(i, size)
	}
	switch s.top().kind {
	case frameSingle:
		s.put(s.raw[i : i+size])
		if s.raw[i] == '\'' {
			s.pop()
		}
		return i + size
	case frameANSI:
		if s.raw[i] == '\\' {
			return s.escape(i)
		}
		s.put(s.raw[i : i+size])
		if s.raw[i] == '\'' {
			s.pop()
		}
		return i + size
	case frameDouble:
		return s.doubleChar(i, size)
	case frameArith:
		return s.arithChar(i, size)
	}
	return s.codeChar(i, size)
}

// shellPlain marks the ASCII bytes that mean nothing by themselves at top level or inside quotes
// (whitespace and the characters the scanner reacts to are not plain).
var shellPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = strings.IndexByte("\\'\"`$#&|;<>()", byte(c)) < 0
	}
	return t
}()

// plainRun copies a run of plain ASCII at top level or inside quotes in one go (the common case, and
// the reason the scanner is fast); it returns i when raw[i] is not plain there.
func (s *shellScanner) plainRun(i int) int {
	if s.comment || (len(s.frames) > 0 && s.top().kind != frameSingle && s.top().kind != frameDouble && s.top().kind != frameANSI) {
		return i
	}
	j := i
	for j < len(s.raw) && s.raw[j] < utf8.RuneSelf && shellPlain[s.raw[j]] {
		j++
	}
	if j == i {
		return i
	}
	s.put(s.raw[i:j])
	if len(s.frames) == 0 {
		s.plainAt = len(s.out) - 1
		s.wordStart = false
	}
	return j
}

func (s *shellScanner) top() *shellFrame { return &s.frames[len(s.frames)-1] }

func (s *shellScanner) push(k frameKind) { s.frames = append(s.frames, shellFrame{kind: k}) }

func (s *shellScanner) pop() {
	s.frames = s.frames[:len(s.frames)-1]
	s.wordStart = false
}

// inCode: top level, or inside a $(…) or backticks, where quotes, operators and heredocs mean something.
func (s *shellScanner) inCode() bool {
	return len(s.frames) == 0 || s.top().kind == frameSubst || s.top().kind == frameBacktick
}

func (s *shellScanner) flush() {
	if s.pendingSpace && len(s.out) > 0 {
		s.out = append(s.out, ' ')
	}
	s.pendingSpace = false
}

// put writes text that belongs to a word (starting one at top level).
func (s *shellScanner) put(text string) {
	s.flush()
	if len(s.frames) == 0 && s.word < 0 {
		s.word = len(s.out)
	}
	s.out = append(s.out, text...)
}

func (s *shellScanner) endWord(at int) {
	if s.word >= 0 {
		s.toks = append(s.toks, shellTok{kind: tokWord, start: s.word, end: at})
		s.word = -1
	}
}

func (s *shellScanner) space(i int, r rune, size int) int {
	if len(s.frames) == 0 {
		s.endWord(len(s.out))
	}
	if s.inCode() {
		s.wordStart = true
	}
	s.pendingSpace = true
	next := i + size
	if r == '\n' {
		s.comment = false
		if len(s.pending) > 0 && s.inCode() {
			next = s.skipHeredocs(next)
		}
	}
	return next
}

// commentChar: quotes, escapes and substitutions are inert in a comment; at top level its operators
// still count, as they did in ContextSaver.
func (s *shellScanner) commentChar(i, size int) int {
	if len(s.frames) == 0 && size == 1 && strings.IndexByte("&|;<>", s.raw[i]) >= 0 {
		return s.operator(i, false)
	}
	s.put(s.raw[i : i+size])
	if len(s.frames) == 0 && size == 1 {
		s.plainAt = len(s.out) - 1
	}
	return i + size
}

// codeChar reads one construct at top level or inside $(…) or backticks.
func (s *shellScanner) codeChar(i, size int) int {
	c := s.raw[i]
	topLevel := len(s.frames) == 0
	switch c {
	case '\\':
		return s.escape(i)
	case '\'':
		s.put("'")
		s.push(frameSingle)
		return i + 1
	case '"':
		s.put(`"`)
		s.push(frameDouble)
		return i + 1
	case '`':
		s.put("`")
		if !topLevel && s.top().kind == frameBacktick {
			s.pop()
		} else {
			s.push(frameBacktick)
			s.wordStart = true
		}
		return i + 1
	case '$':
		if i+1 < len(s.raw) && s.raw[i+1] == '\'' {
			s.put("$'")
			s.push(frameANSI)
			return i + 2
		}
		if n := s.substitution(i); n > i {
			return n
		}
	case '#':
		if s.wordStart {
			s.comment = true
			s.put("#")
			return i + 1
		}
	case '(', ')':
		if !topLevel && s.top().kind == frameSubst {
			f := s.top()
			s.put(s.raw[i : i+1])
			switch {
			case c == '(':
				f.depth++
				s.wordStart = true
			case f.depth > 0:
				f.depth--
			default:
				s.pop()
			}
			return i + 1
		}
	case '&', '|', ';', '<', '>':
		if topLevel {
			return s.operator(i, true)
		}
		return s.nestedOperator(i)
	}
	s.put(s.raw[i : i+size])
	if topLevel && size == 1 {
		s.plainAt = len(s.out) - 1
	}
	s.wordStart = false
	return i + size
}

// substitution opens $( or $(( at i; it returns i when there is none.
func (s *shellScanner) substitution(i int) int {
	if i+1 >= len(s.raw) || s.raw[i+1] != '(' {
		return i
	}
	if i+2 < len(s.raw) && s.raw[i+2] == '(' {
		s.put("$((")
		s.push(frameArith)
		return i + 3
	}
	s.put("$(")
	s.push(frameSubst)
	s.wordStart = true
	return i + 2
}

func (s *shellScanner) doubleChar(i, size int) int {
	switch s.raw[i] {
	case '\\':
		return s.escape(i)
	case '"':
		s.put(`"`)
		s.pop()
		return i + 1
	case '`':
		s.put("`")
		s.push(frameBacktick)
		s.wordStart = true
		return i + 1
	case '$':
		if n := s.substitution(i); n > i {
			return n
		}
	}
	s.put(s.raw[i : i+size])
	return i + size
}

func (s *shellScanner) arithChar(i, size int) int {
	f := s.top()
	switch s.raw[i] {
	case '(':
		f.depth++
	case ')':
		switch {
		case f.depth > 0:
			f.depth--
		case i+1 < len(s.raw) && s.raw[i+1] == ')':
			s.put("))")
			s.pop()
			return i + 2
		default:
			s.put(")")
			s.pop()
			return i + 1
		}
	}
	s.put(s.raw[i : i+size])
	return i + size
}

// escape writes a backslash and the character it quotes. A backslash before whitespace leaves the
// whitespace to collapse as usual, so the key reads as ContextSaver's did.
func (s *shellScanner) escape(i int) int {
	s.put(`\`)
	s.wordStart = false
	if i+1 >= len(s.raw) {
		return i + 1
	}
	r, size := utf8.DecodeRuneInString(s.raw[i+1:])
	if unicode.IsSpace(r) {
		return i + 1
	}
	s.out = append(s.out, s.raw[i+1:i+1+size]...)
	return i + 1 + size
}

// nestedOperator writes an operator inside $(…) or backticks: it splits and cuts nothing outside, but a
// heredoc opened there still has a body to drop.
func (s *shellScanner) nestedOperator(i int) int {
	op := operatorAt(s.raw, i)
	s.put(op)
	s.wordStart = true
	if op == "<<" || op == "<<-" {
		s.heredoc(i+len(op), op == "<<-")
	}
	return i + len(op)
}

// operator records a top-level operator; heredocs open only where they can (not in a comment).
func (s *shellScanner) operator(i int, code bool) int {
	op := operatorAt(s.raw, i)
	kind := tokRedirect
	switch op {
	case "&&", "||", ";":
		kind = tokChain
	case "|", "|&":
		kind = tokPipe
	case "&":
		kind = tokBackground
	}
	start := -1
	stdout := true // no fd digit before it, or one that ends a word (`a2>`: an argument, then stdout's)
	if kind == tokRedirect && op[0] != '&' && !s.pendingSpace && s.plainAt >= 0 && s.plainAt == len(s.out)-1 && asciiDigit(s.out[s.plainAt]) {
		start = s.plainAt
		switch {
		case s.word == start: // the digit is a word of its own (`2>`)
			stdout = s.out[start] == '1'
			s.word = -1
		case s.word >= 0 && digitsOnly(s.out[s.word:start]):
			// A word of digits is the fd's number whole (`10>` is fd 10); the key still splits off its
			// last digit alone, as ContextSaver's keys do.
			stdout = strings.TrimLeft(string(s.out[s.word:start+1]), "0") == "1"
		}
	}
	if start >= 0 {
		s.endWord(start)
	}
	s.endWord(len(s.out))
	s.flush()
	if start < 0 {
		start = len(s.out)
	}
	s.out = append(s.out, op...)
	s.wordStart = true
	t := shellTok{kind: kind, start: start, end: len(s.out)}
	switch op {
	case ">", ">>", ">|":
		t.out = stdout
	case ">&":
		t.out, t.dup = stdout, true
	case "&>", "&>>":
		t.out = true
	case "<&":
		t.dup = true
	}
	s.toks = append(s.toks, t)
	if code && (op == "<<" || op == "<<-") {
		s.heredoc(i+len(op), op == "<<-")
	}
	return i + len(op)
}

// operatorAt is the longest operator starting at raw[i].
func operatorAt(raw string, i int) string {
	for _, op := range shellOperators {
		if strings.HasPrefix(raw[i:], op) {
			return op
		}
	}
	return raw[i : i+1]
}

// shellOperators, longest first so the first prefix found is the operator.
var shellOperators = []string{"&>>", "<<<", "<<-", "&&", "||", "|&", "&>", ">>", ">|", ">&", "<&", "<>", "<<", "&", "|", ";", "<", ">"}

func asciiDigit(c byte) bool { return c >= '0' && c <= '9' }
