package forkcmd

import (
	"fmt"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/paths"
)

// Record appends a fork saverd ran (a judge or process run of the daemon's, `saverd audit --judge`) to
// the forks log with what its own requests used, so the session readers count its spend as the judged
// session's judge spend, never as a session of its own, and impact never links a commit to it; harness
// is the judged session's harness id, which its caller always knows. A fork that reported no id cannot
// be told apart from a session later: that is the error.
func Record(parent, harness, purpose string, res Result) error {
	if res.ForkID == "" {
		return fmt.Errorf("the %s fork of %s reported no session id: its spend is not in the forks log", purpose, parent)
	}
	path, err := paths.ForksLog()
	if err != nil {
		return err
	}
	u := res.Usage
	return agentlog.AppendFork(path, agentlog.ForkRecord{SessionID: res.ForkID, Parent: parent, Harness: harness, Purpose: purpose,
		At: time.Now().UTC().Format(time.RFC3339Nano), Model: res.Model,
		Tokens: &agentlog.Tokens{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens}})
}
