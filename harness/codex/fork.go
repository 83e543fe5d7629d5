package codex

import (
	"bytes"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/internal/codexexec"
)

// ForkCommand is the built-in fork of a Codex session: codex exec of the session's model, ephemeral and
// with hooks off (internal/codexexec). It forks no session id: the prompt carries what the judge reads.
// The model must pass forkcmd's check first.
func (Harness) ForkCommand(req forkcmd.Request) (string, []string, error) {
	if err := forkcmd.CheckModel(req.Model); err != nil {
		return "", nil, err
	}
	return "codex", codexexec.Args(req.Model), nil
}

// ForkLine is the configuration's codexJudgeCommand.
func (Harness) ForkLine(cfg forkcmd.Config) string { return cfg.Codex }

// ForkResult reads codex exec --json's events: the last message, the completed turns' usage and the
// thread id.
func (Harness) ForkResult(out []byte) (forkcmd.Result, error) {
	run, err := codexexec.Parse(bytes.NewReader(out))
	return forkcmd.Result{Text: run.Text, Usage: run.Usage, ForkID: run.ThreadID}, err
}
