// Command saverd watches a live coding-agent session for wasteful habits, names them with evidence,
// carries the person's fixes into the agent's later prompts and subagents, and proves what they saved.
//
// It is a daemon in the style of a language server: a host (a Claude Code plugin, an editor, a script)
// spawns it and speaks JSON-RPC 2.0 over stdin/stdout. protocol.md documents every method. Its other
// subcommands read what the agents log (sessions, blocks, report, impact, audit), install its hooks, and
// play recordings; `saverd help` lists them, and each command's help (its flags) is written once, in the
// command's value here (cli.Command).
package main

import (
	"context"
	"io"
	"os"

	"github.com/saverd/saverd/internal/cli"
)

// version is the daemon's version, as initialize reports it.
const version = "0.1.0"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the subcommand args name and returns the process's exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return program().Run(ctx, args, cli.IO{In: stdin, Out: stdout, Err: stderr})
}

// program is saverd's commands; the one a run names is made for it (cli.Entry).
func program() *cli.Program {
	return &cli.Program{
		Intro: "saverd watches coding-agent sessions (Claude Code, Codex) for wasteful habits, names them with evidence, carries " +
			"fixes into the agent's later prompts, proves what they saved, and reports what sessions cost and produced.",
		Default: "serve",
		Version: version,
		Commands: []cli.Entry{
			{Name: "serve", New: newServeCmd},
			{Name: "hook", New: newHookCmd},
			{Name: "statusline", New: newStatuslineCmd},
			{Name: "replay", New: newReplayCmd},
			{Name: "demo", New: newDemoCmd},
			{Name: "impact", New: newImpactCmd},
			{Name: "sessions", New: newSessionsCmd},
			{Name: "blocks", New: newBlocksCmd},
			{Name: "report", New: newReportCmd},
			{Name: "audit", New: newAuditCmd},
			{Name: "install", New: func() *cli.Command { return newInstallCmd(false) }},
			{Name: "uninstall", New: func() *cli.Command { return newInstallCmd(true) }},
			{Name: "doctor", New: newDoctorCmd},
			{Name: "stop", New: newStopCmd},
		},
	}
}
