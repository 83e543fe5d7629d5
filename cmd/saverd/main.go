// Command saverd watches a live coding-agent session for wasteful habits, names them with evidence,
// carries the person's fixes into the agent's later prompts and subagents, and proves what they saved.
//
// It is a daemon in the style of a language server: a host (a Claude Code plugin, an editor, a script)
// spawns it and speaks JSON-RPC 2.0 over stdin/stdout. protocol.md documents every method.
//
// Usage:
//
//	saverd [serve] [flags]     the daemon (default); --listen serves the user's shared Unix socket
//	saverd hook EVENT          the command Claude Code (or Codex, --harness codex) runs for each hook
//	saverd statusline          Claude Code's status line: the band as one line
//	saverd replay FILE         play a recording (or NDJSON of host requests) through a fresh daemon
//	saverd demo                a built-in sample session, ending in the band and the pane as text
//	saverd impact ...          link commits to agent sessions and report what each kept commit cost
//	saverd sessions ...        the agent sessions in Claude Code's and Codex's own logs, with tokens and cost
//	saverd blocks ...          the 5-hour windows a subscription counts, with the open one's pace
//	saverd report ...          one HTML page with charts: spend per day, top sessions, cost per kept commit, habits
//	saverd audit ...           a past Claude Code session played through the reducer offline
//	saverd install HARNESS     merge saverd's hooks into Claude Code's or Codex's settings (uninstall: remove them)
//	saverd doctor              check the hooks, the daemon and the judge command
//	saverd stop                end the user's shared daemon
package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

// version is the daemon's version, as initialize reports it.
const version = "0.1.0"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a subcommand and returns the process's exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	} else if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		cmd = "help" // the overview, not only the flags of the default subcommand
	}
	switch cmd {
	case "serve":
		return runServe(ctx, args, stdin, stdout, stderr)
	case "replay":
		return runReplay(ctx, args, stdout, stderr)
	case "demo":
		return runDemo(ctx, args, stdout, stderr)
	case "impact":
		return runImpact(ctx, args, stdout, stderr)
	case "sessions":
		return runSessions(ctx, args, stdout, stderr)
	case "blocks":
		return runBlocks(ctx, args, stdout, stderr)
	case "report":
		return runReport(ctx, args, stdout, stderr)
	case "audit":
		return runAudit(ctx, args, stdout, stderr)
	case "hook":
		return runHook(args, stdin, stdout)
	case "statusline":
		return runStatusline(args, stdin, stdout)
	case "install":
		return runInstall(args, false, stdout, stderr)
	case "uninstall":
		return runInstall(args, true, stdout, stderr)
	case "doctor":
		return runDoctor(ctx, args, stdout, stderr)
	case "stop":
		return runStop(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version":
		fmt.Fprintln(stdout, "saverd", version)
		return 0
	}
	fmt.Fprintf(stderr, "saverd: unknown command %q\n\n%s", cmd, usage)
	return 2
}

const usage = `Usage:
  saverd [serve] [--framing auto|ndjson|header] [--store DIR] [--log-file FILE] [--log-level LEVEL]
                 [--fork-timeout 10m] [--record FILE] [--idle-evict 6h]
      Speak JSON-RPC 2.0 on stdin/stdout (see protocol.md). Logs go to stderr or --log-file.
  saverd serve --listen PATH|default [--idle-exit 30m] ...
      Serve the same protocol on a Unix socket, one connection per client (the user's shared daemon).
  saverd hook [--harness claude-code|codex] EVENT
      Claude Code's (or Codex's) hook command: the payload on stdin, the answer on stdout; never fails.
  saverd statusline
      Claude Code's status line command: the band as one line ("saverd idle", the model, context and cost
      from its input when no daemon holds the session; it never starts one).
  saverd replay FILE [--show band|pane|debug] [--width N] [--write]
      Play a recording (or any NDJSON of host requests) through a fresh daemon in-process, answering
      model.fork from the recorded replies in order; print every response and notification as NDJSON.
  saverd demo [--width N]
      Play a built-in sample session through the daemon and print the band and the pane.
  saverd impact [--sessions FILE]... [--repo DIR]... [--decisions FILE] [--days N] [--format json|table]
                [--claude-dir DIR] [--codex-dir DIR] [--prices FILE]
  saverd impact pending ...
  saverd impact decide SUBJECT --yes P --decisions FILE
      Link commits to agent sessions and report what each kept commit cost. Without --sessions, the
      sessions come from the agents' own logs and the daemon's sessions log.
  saverd sessions [--since D] [--until D] [--tz ZONE] [--harness H] [--repo DIR]
                  [--by day|week|month|model|project|harness] [--format table|json|ndjson|csv]
                  [--claude-dir DIR] [--codex-dir DIR] [--prices FILE]
      One row per session read from Claude Code's transcripts and Codex's rollouts: calls, tokens, cost.
  saverd blocks [--since D] [--until D] [--tz ZONE] [--harness H] [--active] [--format table|json] [--now TIME]
      The 5-hour windows a subscription counts, per harness: spend, and the open window's pace to its end.
  saverd report [--out FILE] [--open] [--since D] [--until D] [--tz ZONE] [--repo DIR]... [--days N] ...
      One self-contained HTML page: cost per day by agent and model, the costliest sessions, cost per kept
      commit per repository week by week, the habits found and fixed with what they saved.
  saverd audit TRANSCRIPT | SESSION-ID | --last | --since D [--format text|json] [--width N] [--window N]
               [--claude-dir DIR] [--codex-dir DIR] [--judge]
      A past Claude Code or Codex session played through the reducer offline: header, repeated calls, largest
      context consumers, compaction forecast.
` + installCommands
