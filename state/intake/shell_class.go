package intake

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// ---- classifying a command (the tables and noise rules are in row.go)

// verdict is the command's class and its key text: the first segment of the chain that classifies, as
// typed, minus the noise before it and the filtering after it (the first top-level pipe or redirect).
// A command with no such segment is other; its key text is the whole command.
func (c *shellCmd) verdict() (state.CommandClass, string) {
	segStart, first := 0, 0
	for k := 0; k <= len(c.toks); k++ {
		if k < len(c.toks) && c.toks[k].kind != tokChain {
			continue
		}
		segEnd := len(c.text)
		if k < len(c.toks) {
			segEnd = c.toks[k].start
		}
		if cls, key, ok := c.segment(segStart, segEnd, c.toks[first:k]); ok {
			return cls, key
		}
		if k < len(c.toks) {
			segStart, first = c.toks[k].end, k+1
		}
	}
	return state.ClassOther, c.text
}

// segment classifies text[a:b]; ok is false when it is other.
func (c *shellCmd) segment(a, b int, toks []shellTok) (state.CommandClass, string, bool) {
	for a < b && c.text[a] == ' ' {
		a++
	}
	for b > a && c.text[b-1] == ' ' {
		b--
	}
	for {
		n := noiseLen(c.text[a:b])
		if n == 0 {
			break
		}
		a += n
	}
	bare := c.text[a:b]
	cls := segmentClass(bare)
	if cls == state.ClassOther {
		return cls, "", false
	}
	// A cat whose output goes to a file writes (protocol.md, "Differences from ContextSaver"): other, so its key is the whole command.
	if cls == state.ClassRead && headToken(baseHead(bare)) == "cat" && writesFile(c.text, toks, a) {
		return state.ClassOther, "", false
	}
	cut := b
	for _, t := range toks {
		if (t.kind == tokPipe || t.kind == tokRedirect) && t.end > a {
			cut = max(t.start, a)
			break
		}
	}
	return cls, strings.TrimRight(c.text[a:min(cut, b)], " "), true
}

// writesFile reports whether the segment's output lands in a file: a stdout redirect to a path, or a
// `tee` (or `sudo tee`) stage with a file operand. /dev/… targets are devices, not files.
func writesFile(text string, toks []shellTok, from int) bool {
	stageHead, tee, target, sudoed := true, false, false, false
	for i, t := range toks {
		if t.start < from {
			continue
		}
		switch t.kind {
		case tokPipe:
			stageHead, tee, target, sudoed = true, false, false, false
		case tokRedirect:
			target = true
			if !t.out || i+1 >= len(toks) || toks[i+1].kind != tokWord {
				continue
			}
			w := shellUnquote(text[toks[i+1].start:toks[i+1].end])
			if t.dup && (w == "-" || digitsOnly(w)) {
				continue
			}
			if !strings.HasPrefix(w, "/dev/") {
				return true
			}
		case tokWord:
			w := shellUnquote(text[t.start:t.end])
			switch {
			case target:
				target = false
			case stageHead:
				// `sudo tee f` and `sudo -E tee f` still tee: sudo and its flags are passed over (not
				// a flag's own argument, so `sudo -u root tee f` is not read as a tee).
				head := w[strings.LastIndexByte(w, '/')+1:]
				if head == "sudo" || (w != "" && w[0] == '-' && sudoed) {
					sudoed = true
					continue
				}
				stageHead, sudoed = false, false
				tee = head == "tee"
			case tee && w != "" && w[0] != '-' && !strings.HasPrefix(w, "/dev/"):
				return true
			}
		}
	}
	return false
}

func digitsOnly[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if !asciiDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

// shellUnquote is a word with its quote characters and escaping backslashes removed: enough to read a
// redirect target or a command name.
func shellUnquote(w string) string {
	if !strings.ContainsAny(w, `'"\`) {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\'', '"':
		case '\\':
			if i+1 < len(w) {
				i++
				b.WriteByte(w[i])
			}
		default:
			b.WriteByte(w[i])
		}
	}
	return b.String()
}
