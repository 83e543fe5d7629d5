package main

import (
	"context"
	"os"

	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/hookcmd"
)

// newHookCmd is `saverd hook [--harness claude-code|codex] [--plugin] EVENT`; a daemon it must start is
// this binary. Its arguments and help are the hook client's, which the small saverd-hook binary shares.
func newHookCmd() *cli.Command {
	return &cli.Command{Short: "the command Claude Code (or Codex, --harness codex) runs for each hook: the payload on " +
		"stdin, the answer on stdout; it never fails", Help: hookcmd.Usage,
		Run: func(_ context.Context, e cli.Env) int {
			self, err := os.Executable()
			if err != nil {
				self = ""
			}
			return hookcmd.Run(e.Args, e.In, e.Out, self)
		}}
}

// newStatuslineCmd is `saverd statusline`, Claude Code's status line command.
func newStatuslineCmd() *cli.Command {
	return &cli.Command{Short: "Claude Code's status line: the band as one line (it never starts a daemon)", Help: hookcmd.Usage,
		Run: func(_ context.Context, e cli.Env) int { return hookcmd.Statusline(e.Args, e.In, e.Out) }}
}
