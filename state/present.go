package state

import "strings"

// A rule is never written twice: before the pane offers a rule, the daemon reads the file the rule lands
// in and asks PresentIn whether the rule is already there — written this session, in an earlier one, or
// by hand. The comparison is of the normalized rule, not of the session's memory of what it wrote.

// SavingBasis is how an artifact's projected saving is reckoned, shown beside the figure: it is an
// estimate, not a measurement.
const SavingBasis = "estimate: 3 avoided repeats of its cited calls"

// PresentIn reports whether an artifact's rule is already in existing, the text of the file it lands in:
// a CLAUDE.md bullet whose normalized line is a line of the file, a skill or brief whose normalized body
// the file holds, a settings rule already in permissions.allow.
func PresentIn(a Artifact, existing string) bool {
	switch a.Mode {
	case ModeAppend:
		want := normalRule(BulletOnly(a.Content))
		if want == "" {
			return false
		}
		for _, line := range strings.Split(existing, "\n") {
			if normalRule(line) == want {
				return true
			}
		}
		return false
	case ModeMergeSettings:
		v, err := decodeOrdered(strings.TrimPrefix(existing, "\uFEFF"))
		root, ok := v.(*orderedObject)
		if err != nil || !ok {
			return false
		}
		permissions, _ := root.get("permissions").(*orderedObject)
		if permissions == nil {
			return false
		}
		allow, _ := permissions.get("allow").([]any)
		return containsRule(allow, a.Content)
	}
	parts := strings.Split(a.Content, "---\n")
	want := normalText(parts[len(parts)-1])
	return want != "" && strings.Contains(normalText(existing), want)
}

// normalRule is one markdown line as a rule: whitespace collapsed, a bullet marker and a final full stop
// dropped, lower-cased, so `- Run only the auth tests.` and `* run only the auth tests` are one rule.
func normalRule(line string) string {
	l := CollapseWs(line)
	for _, marker := range []string{"- ", "* ", "+ "} {
		l = strings.TrimPrefix(l, marker)
	}
	return strings.ToLower(strings.TrimSuffix(l, "."))
}

// normalText is a text with its whitespace collapsed and lower-cased.
func normalText(text string) string { return strings.ToLower(CollapseWs(text)) }
