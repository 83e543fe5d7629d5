package claudeapi

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/ptyterm"
)

// TUI size: wide enough that the pane's 100-column lines and the status line are drawn whole.
const (
	TUICols = 140
	TUIRows = 50
)

// Interactive starts the real client's interactive UI on a pseudo-terminal, in the namespace, in Dir
// with Env and args, and stops it when the test ends. First it marks in $HOME/.claude.json what a
// person answers on a first run, so the UI starts at the prompt: onboarding done (its connectivity
// check ignores ANTHROPIC_BASE_URL and fails offline), the API key approved, the project trusted.
func (c *Claude) Interactive(t testing.TB, args ...string) *ptyterm.Term {
	t.Helper()
	return c.InteractiveSized(t, TUICols, TUIRows, args...)
}

// InteractiveSized is Interactive on a terminal of cols×rows: what a person with a narrower terminal
// sees.
func (c *Claude) InteractiveSized(t testing.TB, cols, rows int, args ...string) *ptyterm.Term {
	t.Helper()
	if err := c.firstRunAnswered(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(c.Path, args...)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), c.Env...), "TERM=xterm-256color", "COLUMNS=", "LINES=")
	return ptyterm.Start(t, cmd, cols, rows, c.Netns.Start)
}

// firstRunAnswered merges the first run's answers into $HOME/.claude.json, keeping what the client
// wrote there.
func (c *Claude) firstRunAnswered() error {
	path := filepath.Join(c.Home, ".claude.json")
	cfg := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return err
		}
	}
	cfg["hasCompletedOnboarding"] = true
	cfg["customApiKeyResponses"] = map[string]any{"approved": []string{apiKey[max(0, len(apiKey)-20):]}, "rejected": []string{}}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	proj, _ := projects[c.Dir].(map[string]any)
	if proj == nil {
		proj = map[string]any{}
	}
	proj["hasTrustDialogAccepted"] = true
	proj["hasCompletedProjectOnboarding"] = true
	projects[c.Dir] = proj
	cfg["projects"] = projects
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
