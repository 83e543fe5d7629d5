package impact

import (
	"bytes"
	"regexp"
	"sort"

	"github.com/saverd/saverd/harness"
)

// TrailerRule is one entry of AGENT_TRAILERS: a pattern in a commit message
// that names the harness which wrote the commit.
type TrailerRule struct {
	// Harness is the harness id as session records carry it.
	Harness string
	// Pattern is matched case-insensitively against the whole message. It
	// must not span lines: it is only tried on the lines holding needle.
	Pattern *regexp.Regexp
	// needle is a lower-case ASCII literal every match contains. Looking for
	// it first keeps the scan as fast as git: most commits carry no trailer
	// and never reach the regexp engine, and the rest reach it with one line.
	needle []byte
}

func rule(harness, needle, pattern string) TrailerRule {
	return TrailerRule{Harness: harness, Pattern: regexp.MustCompile(`(?im)` + pattern), needle: []byte(needle)}
}

// AgentTrailers is AGENT_TRAILERS, tried in order; the first rule that
// matches names the harness. Trailer-style rules are anchored at a line start
// (leading blanks allowed); the rest are signatures that appear anywhere in
// the message (an author address, a "Generated with" line).
var AgentTrailers = []TrailerRule{
	rule("claude-code", "noreply@anthropic.com", `^[ \t]*co-authored-by:[ \t]*claude[^\n<]*<noreply@anthropic\.com>`),
	rule("claude-code", "generated with [claude code]", `generated with \[claude code\]`),
	rule("claude-code", "claude-session:", `^[ \t]*claude-session:`),
	rule("codex", "openai.com", `^[ \t]*co-authored-by:[ \t]*codex[^\n<]*<(noreply|codex)@openai\.com>`),
	rule("aider", "aider.chat", `^[ \t]*co-authored-by:[ \t]*aider\b[^\n<]*<[^>\n]*@aider\.chat>`),
	rule("copilot", "copilot@users.noreply.github.com", `^[ \t]*co-authored-by:[ \t]*copilot[^\n<]*<[^>\n]*\+copilot@users\.noreply\.github\.com>`),
	rule("copilot", "copilot@github.com", `^[ \t]*co-authored-by:[ \t]*copilot[^\n<]*<copilot@github\.com>`),
	rule("copilot", "agent-logs-url:", `^[ \t]*agent-logs-url:`),
	rule("cursor", "made-with:", `^[ \t]*made-with:[ \t]*cursor\b`),
	rule("cursor", "cursoragent@cursor.com", `cursoragent@cursor\.com`),
	rule("amp", "amp-thread", `^[ \t]*amp-thread(-id)?:`),
	rule("amp", "amp@ampcode.com", `<amp@ampcode\.com>`),
	rule("opencode", "noreply@opencode.ai", `<noreply@opencode\.ai>`),
	rule("devin", "devin-ai-integration[bot]", `devin-ai-integration\[bot\]`),
	rule("jules", "google-labs-jules[bot]", `google-labs-jules\[bot\]`),
	rule("qwen-code", "qwen-coder@alibabacloud.com", `<qwen-coder@alibabacloud\.com>`),
}

// trailerMatcher finds the agent trailer of commit messages. It keeps a
// lower-case copy buffer between calls, so it is not safe for concurrent use.
type trailerMatcher struct {
	rules []TrailerRule
	lower []byte
}

func newTrailerMatcher(rules []TrailerRule) *trailerMatcher {
	return &trailerMatcher{rules: rules}
}

// harness returns the harness named by the first matching rule, or "".
func (m *trailerMatcher) harness(msg []byte) string {
	m.lower = asciiLower(m.lower[:0], msg)
	return m.harnessLower(msg, m.lower)
}

// harnessLower is harness with the ASCII lower-case message already made.
func (m *trailerMatcher) harnessLower(msg, lower []byte) string {
	for _, r := range m.rules {
		if r.matches(msg, lower) {
			return r.Harness
		}
	}
	return ""
}

// matches tries the pattern on each line of msg that holds the needle
// (lower is msg in ASCII lower case, so offsets agree).
func (r *TrailerRule) matches(msg, lower []byte) bool {
	if len(r.needle) == 0 {
		return r.Pattern.Match(msg)
	}
	for from := 0; ; {
		i := bytes.Index(lower[from:], r.needle)
		if i < 0 {
			return false
		}
		i += from
		start := bytes.LastIndexByte(lower[:i], '\n') + 1
		end := len(lower)
		if j := bytes.IndexByte(lower[i:], '\n'); j >= 0 {
			end = i + j
		}
		if r.Pattern.Match(msg[start:end]) {
			return true
		}
		from = end
	}
}

// asciiLower appends the ASCII lower-case form of src to dst. The needles
// are ASCII, so folding only ASCII is enough and keeps byte offsets.
func asciiLower(dst, src []byte) []byte {
	for _, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// TrailerHarness returns the harness id named by the agent trailer of a
// commit message, or "" when none matches.
func TrailerHarness(msg string) string {
	return newTrailerMatcher(AgentTrailers).harness([]byte(msg))
}

// KnownHarnesses are the harness ids AgentTrailers names and those saverd reads the logs of, sorted.
func KnownHarnesses() []string {
	seen := make(map[string]bool)
	var out []string
	for _, id := range harness.IDs() {
		seen[string(id)] = true
		out = append(out, string(id))
	}
	for _, r := range AgentTrailers {
		if !seen[r.Harness] {
			seen[r.Harness] = true
			out = append(out, r.Harness)
		}
	}
	sort.Strings(out)
	return out
}

// KnownHarness reports whether some agent trailer names harness, or it is a harness saverd reads the
// logs of (Gemini CLI writes no trailer: its sessions link by window only, and that is no typo).
func KnownHarness(id string) bool {
	for _, r := range AgentTrailers {
		if r.Harness == id {
			return true
		}
	}
	return harness.Known(id)
}
