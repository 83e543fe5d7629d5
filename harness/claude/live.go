package claude

import (
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// Command is /saver: the command file `saverd install` writes makes Claude Code's interactive UI take it.
func (Harness) Command() string { return saverline.Slash }

// Agent is what Claude Code's person calls the agent.
func (Harness) Agent() string { return "Claude" }

// BlockPrompt blocks the line with suppressOriginalPrompt, so the person reads the pane under
// "UserPromptSubmit operation blocked by hook" without the typed line repeated after it.
func (Harness) BlockPrompt(reason string) *bridge.Answer {
	a := bridge.Block(reason)
	a.HookSpecificOutput = &bridge.Specific{HookEventName: bridge.UserPromptSubmit, SuppressOriginalPrompt: true}
	return a
}

// Rules is arts as proposed: Claude Code reads CLAUDE.md, skills, agent briefs and settings
// permissions, every kind the pane offers.
func (Harness) Rules(_ *state.State, arts []rules.Artifact) []rules.Artifact { return arts }
