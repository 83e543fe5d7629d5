package claude

import "github.com/saverd/saverd/forkcmd"

// ForkCommand is the built-in fork of a Claude Code session: claude -p resuming the session as a fork
// (its first request reuses the parent's prompt cache), one turn, plan mode (no tool may change
// anything), hooks off, JSON out. The session id and the model ride in their options' own words
// (--resume=<id>, --model=<model>), so neither can ever be read as an option of its own, whatever a
// hook payload put in them; both must pass forkcmd's checks first.
func (Harness) ForkCommand(req forkcmd.Request) (string, []string, error) {
	if err := forkcmd.CheckSessionID(req.SessionID); err != nil {
		return "", nil, err
	}
	if err := forkcmd.CheckModel(req.Model); err != nil {
		return "", nil, err
	}
	return "claude", forkArgs(req), nil
}

// forkArgs is ForkCommand's arguments.
func forkArgs(req forkcmd.Request) []string {
	args := []string{"-p", "--resume=" + req.SessionID, "--fork-session", "--output-format", "json",
		"--max-turns", "1", "--permission-mode", "plan", "--settings", `{"disableAllHooks":true}`}
	if req.Model != "" {
		args = append(args, "--model="+req.Model)
	}
	return args
}

// ForkLine is the configuration's judgeCommand.
func (Harness) ForkLine(cfg forkcmd.Config) string { return cfg.Claude }

// ForkResult reads claude -p's JSON result (forkcmd.ParseClaude).
func (Harness) ForkResult(out []byte) (forkcmd.Result, error) { return forkcmd.ParseClaude(out) }
