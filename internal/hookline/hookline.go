// Package hookline tells saverd's hook command lines from everyone else's in a harness's settings: the
// installer uses it to find what it wrote, and the hook binary to see whether saverd's hooks are in the
// settings already (the plugin's hooks then stand down). It is pure and imports nothing.
package hookline

import (
	"path/filepath"
	"strings"
)

// Ours reports whether a command line is one saverd wrote: its first word's base name is saverd (or the
// small saverd-hook binary, which takes the same arguments) and its second word is `hook` or
// `statusline`. Everything else in a settings file belongs to someone else.
func Ours(command string) bool {
	w := Words(command, 2)
	if len(w) != 2 || (w[1] != "hook" && w[1] != "statusline") {
		return false
	}
	base := filepath.Base(w[0])
	return base == "saverd" || base == "saverd-hook"
}

// Hook reports whether a command line is one of saverd's hooks (not its status line).
func Hook(command string) bool {
	w := Words(command, 2)
	return Ours(command) && w[1] == "hook"
}

// Words splits the first n shell words of a command line, honouring single and double quotes and
// backslashes, which is all a command saverd writes (a quoted binary path) can contain.
func Words(s string, n int) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s) && len(out) < n; i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in && len(out) < n {
		out = append(out, cur.String())
	}
	return out
}
