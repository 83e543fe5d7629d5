package all

import (
	"encoding/json"
	"testing"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/saverline"
)

// TestBlockPrompt: a saverd command typed in a live harness is blocked in its words.
func TestBlockPrompt(t *testing.T) {
	for _, c := range []struct {
		id   harness.ID
		want string
	}{
		{harness.ClaudeCode, `{"decision":"block","reason":"the pane","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","suppressOriginalPrompt":true}}`},
		{harness.Codex, `{"decision":"block","reason":"the pane"}`},
	} {
		h, ok := LiveOf(c.id)
		if !ok {
			t.Fatalf("%s is not live", c.id)
		}
		got, err := json.Marshal(h.BlockPrompt("the pane"))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: BlockPrompt = %s, %v; want %s", c.id, got, err, c.want)
		}
	}
}

// TestCommandIsASpelling: the command each live harness tells its person to type is one the hooks take
// as a saverd command.
func TestCommandIsASpelling(t *testing.T) {
	for _, h := range Live() {
		if args, ok := saverline.Args(h.Command() + " fix 1"); !ok || args != "fix 1" {
			t.Errorf("%s: %q is not read as a saverd command", h.ID(), h.Command())
		}
	}
}
