package judge

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestPromptCategoriesAreTheCore: the habit judge's template (judge-prompt.txt, the seed's words, as
// JudgePrompt embeds it) lists the categories twice — a bullet each under "## Categories", and the
// contract's `"category"` enum — and says how many there are; each is the core's list (state.Categories,
// which the reply's check, the reducer and the cards read), in its order. A category added on one side
// only would have the judge name findings the reply check throws away, or never name one the cards
// know.
func TestPromptCategoriesAreTheCore(t *testing.T) {
	core := make([]string, len(state.Categories))
	for i, c := range state.Categories {
		core[i] = string(c)
	}
	prompt := JudgePrompt()

	section, ok := sectionOf(prompt, "## Categories")
	if !ok {
		t.Fatal(`the judge prompt has no "## Categories" section`)
	}
	var bullets []string
	for _, line := range strings.Split(section, "\n")[1:] {
		if name, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), " — "); ok && strings.HasPrefix(line, "- ") {
			bullets = append(bullets, name)
		}
	}
	if !slices.Equal(bullets, core) {
		t.Errorf("## Categories lists %q, the core %q", bullets, core)
	}

	enum := regexp.MustCompile(`"category": "([a-z|-]+)"`).FindStringSubmatch(prompt)
	if enum == nil {
		t.Fatal(`the judge prompt's contract has no "category" enum`)
	}
	if got := strings.Split(enum[1], "|"); !slices.Equal(got, core) {
		t.Errorf(`the contract's "category" is %q, the core %q`, got, core)
	}

	if want := "the " + numberWords[len(core)] + " names are the whole enum"; !strings.Contains(section, want) {
		t.Errorf("## Categories does not say %q", want)
	}
	for _, c := range core {
		if !state.IsCategory(c) {
			t.Errorf("state.IsCategory(%q) = false", c)
		}
	}
}

// sectionOf is the text from the line starting with heading to the next "## " heading.
func sectionOf(text, heading string) (string, bool) {
	at := strings.Index(text, "\n"+heading)
	if at < 0 {
		return "", false
	}
	section := text[at+1:]
	if end := strings.Index(section[len(heading):], "\n## "); end >= 0 {
		section = section[:len(heading)+end]
	}
	return section, true
}

var numberWords = map[int]string{7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
