package codex

import (
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// Command is $saver: Codex 0.169.0 has no custom slash commands (a typed /saver is refused as an unknown
// command before any hook), and the skill `saverd install` writes is typed with $.
func (Harness) Command() string { return saverline.Dollar }

// Agent is what Codex's person calls the agent.
func (Harness) Agent() string { return "Codex" }

// BlockPrompt is the plain block: Codex 0.169.0 takes no suppressOriginalPrompt.
func (Harness) BlockPrompt(reason string) *bridge.Answer { return bridge.Block(reason) }

// Rules is arts as AGENTS.md bullets (rules.ForCodex): Codex reads AGENTS.md, and has no skills, agent
// briefs or settings permissions of Claude Code's kind.
func (Harness) Rules(st *state.State, arts []rules.Artifact) []rules.Artifact {
	return rules.ForCodex(st, arts)
}
