package detect

import "strings"

// What the detectors read of a shell command: its stages, each a list of words, and whether output left
// a stage through a pipe or a redirect. It is enough to find a command's head and flags; anything it
// reads wrong makes a detector stay silent, never fire (a flag taken for an argument makes a run read
// as narrowed, a pipe read where there is none makes an output read as filtered).

// stage is one simple command of a line: its words, unquoted, and how it ended.
type stage struct {
	words []string
	text  string // the stage as written
	piped bool   // its output goes to a pipe or a redirect
}

// stages splits a command line on unquoted `|`, `||`, `&&`, `;`, `&` and newlines; a redirect (`>`,
// `2>&1`, `<`) marks its stage piped and takes its target word with it.
func stages(line string) []stage {
	var out []stage
	var cur stage
	var word strings.Builder
	inWord, skipTarget := false, false
	start, at := 0, 0 // where the stage began; where the character being read is
	flush := func() {
		if !inWord {
			return
		}
		if skipTarget {
			skipTarget = false
		} else {
			cur.words = append(cur.words, word.String())
		}
		word.Reset()
		inWord = false
	}
	end := func(piped bool, next int) {
		flush()
		cur.piped = cur.piped || piped
		cur.text = strings.TrimSpace(line[start:min(at, len(line))])
		if len(cur.words) > 0 {
			out = append(out, cur)
		}
		cur, start = stage{}, next
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		at = i
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				word.WriteString(line[i+1:])
				i = len(line)
				break
			}
			word.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
				}
				word.WriteByte(line[i])
			}
		case c == '\\' && i+1 < len(line):
			inWord = true
			i++
			word.WriteByte(line[i])
		case c == ' ' || c == '\t':
			flush()
		case c == '|':
			if i+1 < len(line) && line[i+1] == '|' {
				i++
				end(false, i+1)
				continue
			}
			end(true, i+1)
		case c == ';' || c == '\n' || c == '&':
			if c == '&' && i+1 < len(line) && line[i+1] == '&' {
				i++
			}
			end(false, i+1)
		case c == '>' || c == '<':
			// A descriptor number before it (`2>`) is the redirect's, not a word.
			if inWord && digitsOnly(word.String()) {
				word.Reset()
				inWord = false
			}
			flush()
			cur.piped = cur.piped || c == '>'
			for i+1 < len(line) && (line[i+1] == '>' || line[i+1] == '&') {
				i++
			}
			skipTarget = true
		default:
			inWord = true
			word.WriteByte(c)
		}
	}
	at = len(line)
	end(false, len(line))
	return out
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// bare is a stage's words from its command on: `VAR=v`, `sudo`, `time`, `timeout 30`, `env` and
// `nice` before it are passed over.
func bare(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case w == "sudo" || w == "time" || w == "env" || w == "nice" || w == "command" || w == "exec":
			words = words[1:]
		case w == "timeout" && len(words) > 1:
			words = words[2:]
		case isAssignment(w):
			words = words[1:]
		default:
			return words
		}
	}
	return words
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w[i]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// baseName is a command word read by its basename: `./node_modules/.bin/jest` is jest.
func baseName(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// hasFlag reports whether words hold one of flags, or a flag that starts with one of them followed by
// `=` (`--tail=100`), or — for a one-letter flag like -n — the flag with its value glued on (`-n50`).
func hasFlag(words []string, flags ...string) bool {
	for _, w := range words {
		for _, f := range flags {
			switch {
			case w == f, strings.HasPrefix(w, f+"="):
				return true
			case len(f) == 2 && f[0] == '-' && f[1] != '-' && strings.HasPrefix(w, f) && len(w) > 2 && digitsOnly(w[2:]):
				return true
			}
		}
	}
	return false
}

// shortFlag reports whether a cluster of one-letter flags (`-laR`) holds letter.
func shortFlag(words []string, letter byte) bool {
	for _, w := range words {
		if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w[1:], letter) >= 0 {
			return true
		}
	}
	return false
}
