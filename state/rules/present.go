package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jsonobj"
)

// A rule is never written twice: before the pane offers a rule, the daemon reads the file the rule lands
// in and asks PresentIn whether the rule is already there — written this session, in an earlier one, or
// by hand. The comparison is of the normalized rule, not of the session's memory of what it wrote.

// SavingBasis is how an artifact's projected saving is reckoned, shown beside the figure: it is an
// estimate, not a measurement.
const SavingBasis = "estimate: 3 avoided repeats of its cited calls"

// RuleFile is the text of one file rules land in, normalized once however many rules are looked up in it.
type RuleFile struct {
	text, normal string
}

// NewRuleFile reads a rule file's text for the lookups.
func NewRuleFile(text string) *RuleFile { return &RuleFile{text: text, normal: normalText(text)} }

// PresentIn reports whether an artifact's rule is already in existing, the text of the file it lands in.
func PresentIn(a Artifact, existing string) bool { return NewRuleFile(existing).Holds(a) }

// Holds reports whether the file holds an artifact's rule already: a CLAUDE.md bullet whose normalized
// line is a line of the file, a skill or brief whose normalized body the file holds, a settings rule
// already in permissions.allow.
func (f *RuleFile) Holds(a Artifact) bool {
	switch a.Mode {
	case ModeAppend:
		want := normalRule(BulletOnly(a.Content))
		// One pass over the whole text first: a rule it does not hold anywhere is no line of it either.
		if want == "" || !strings.Contains(f.normal, want) {
			return false
		}
		for _, line := range strings.Split(f.text, "\n") {
			if normalRule(line) == want {
				return true
			}
		}
		return false
	case ModeMergeSettings:
		v, err := jsonobj.Decode(strings.TrimPrefix(f.text, "\uFEFF"))
		root, ok := v.(*jsonobj.Object)
		if err != nil || !ok {
			return false
		}
		permissions, _ := root.Get("permissions").(*jsonobj.Object)
		if permissions == nil {
			return false
		}
		allow, _ := permissions.Get("allow").([]any)
		return containsRule(allow, a.Content)
	}
	parts := strings.Split(a.Content, "---\n")
	want := normalText(parts[len(parts)-1])
	return want != "" && strings.Contains(f.normal, want)
}

// normalRule is one markdown line as a rule: whitespace collapsed, a bullet marker and a final full stop
// dropped, lower-cased, so `- Run only the auth tests.` and `* run only the auth tests` are one rule.
func normalRule(line string) string {
	l := normalText(line)
	for _, marker := range []string{"- ", "* ", "+ "} {
		l = strings.TrimPrefix(l, marker)
	}
	return strings.TrimSuffix(l, ".")
}

// normalText is a text with its whitespace collapsed (as CollapseWs) and lower-cased, in one pass that
// takes ASCII a byte at a time: a CLAUDE.md is read on every pane view.
func normalText(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	space := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if c == ' ' || (c >= '\t' && c <= '\r') {
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
