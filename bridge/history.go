package bridge

import (
	"bytes"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state/intake"
)

// History reads a Claude Code transcript (or a Codex rollout) as the messages session.start adopts:
// the person's prompts, and each assistant message's tool calls with what they returned. A daemon that
// joins a session late (a resume, a restart) rebuilds its ledger from them. Both are read by the readers
// `saverd audit` uses.
func History(path string) ([]intake.SessionMessage, error) {
	head, err := safefile.Head(path, 4096)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(head, []byte(`"session_meta"`)) {
		tr, err := agentlog.ReadCodexTranscript(path, agentlog.Options{})
		return tr.Messages, err
	}
	tr, err := agentlog.ReadClaudeTranscript(path, agentlog.Options{})
	return tr.Messages, err
}
