package intake

import (
	"strings"
)

// Heredocs: a body is data, never a command (protocol.md, "Differences from ContextSaver"), so the scanner skips it whole.

// heredoc notes the heredoc whose delimiter word starts at raw[i].
func (s *shellScanner) heredoc(i int, stripTabs bool) {
	if delim, ok := heredocDelim(s.raw[i:]); ok {
		s.pending = append(s.pending, heredocSpec{delim: delim, stripTabs: stripTabs})
	}
}

// heredocDelim reads a heredoc's delimiter word with its quotes removed (`'EOF'`, `"EOF"`, `\EOF`).
func heredocDelim(rest string) (string, bool) {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	var b strings.Builder
	found := false
	for i < len(rest) {
		c := rest[i]
		switch {
		case strings.IndexByte(" \t\r\n;&|<>()", c) >= 0:
			return b.String(), found
		case c == '\'' || c == '"':
			end := strings.IndexByte(rest[i+1:], c)
			if end < 0 {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(rest[i+1:i+1+end], `\`, ""))
			i += end + 2
		case c == '\\' && i+1 < len(rest):
			b.WriteByte(rest[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
		found = true
	}
	return b.String(), found
}

// skipHeredocs skips the bodies of the pending heredocs, which start at raw[start], each through its
// terminator line; it returns where scanning resumes (the newline after the last terminator, or the
// end when a body never closes).
func (s *shellScanner) skipHeredocs(start int) int {
	pending := s.pending
	s.pending = nil
	pos := start
	for k, h := range pending {
		for {
			if pos >= len(s.raw) {
				return len(s.raw)
			}
			lineEnd := len(s.raw)
			if nl := strings.IndexByte(s.raw[pos:], '\n'); nl >= 0 {
				lineEnd = pos + nl
			}
			line := strings.TrimSuffix(s.raw[pos:lineEnd], "\r")
			if h.stripTabs {
				line = strings.TrimLeft(line, "\t")
			}
			pos = lineEnd + 1
			if line == h.delim {
				if k == len(pending)-1 {
					return lineEnd
				}
				break
			}
		}
	}
	return min(pos, len(s.raw))
}
