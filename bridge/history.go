package bridge

import (
	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/state/intake"
)

// History reads a Claude Code transcript (or a Codex rollout) as the messages session.start adopts:
// the person's prompts, and each assistant message's tool calls with what they returned. A daemon that
// joins a session late (a resume, a restart) rebuilds its ledger from them. Both are read by the readers
// `saverd audit` uses, within a hook's bounds (ReadWait, the agent logs' sizes): a file past them is an
// error naming it, and nothing of it is adopted.
func History(path string) ([]intake.SessionMessage, error) {
	tr, err := agentlog.ReadTranscript(path, agentlog.Options{Limits: limits()})
	return tr.Messages, err
}
