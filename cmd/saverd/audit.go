package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/saverd/saverd/audit"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/timespan"
)

// auditCmd is `saverd audit`: 0 on success, 2 on a usage error, 1 when no transcript can be read.
type auditCmd struct {
	logs   logFlags
	opt    audit.Options
	last   bool
	since  string
	format string
	width  int
	query  audit.Query // what the arguments and flags ask for, once checked
}

func newAuditCmd() *cli.Command {
	c := &auditCmd{}
	fs := cli.NewFlagSet()
	fs.Bool(&c.opt.Judge, "judge", false, "also run the habit judge over it through the fork command (claude -p --resume <session> "+
		"--fork-session, codex exec for a Codex session, or $SAVERD_JUDGE_CMD / the config file's judgeCommand / "+
		"codexJudgeCommand, which Gemini CLI's, OpenCode's and Qwen Code's sessions need) and print its cards")
	fs.Duration(&c.opt.JudgeTimeout, "judge-timeout", 10*time.Minute, "D", "how long the judge may take (default 10m)")
	fs.Bool(&c.last, "last", false, "the most recently written session")
	fs.String(&c.since, "since", "", "D", "every session active since D (a date, RFC 3339, or an age: 7d, 12h)")
	fs.String(&c.format, "format", "text", "F", "text or json (default text)")
	fs.Int(&c.width, "width", 100, "N", "text width (default 100)")
	fs.Int64(&c.opt.Window, "window", 0, "N", "context window in tokens (default: the model's, else 200000)")
	c.logs.registerDirs(fs, "")
	return &cli.Command{Usage: []string{"TRANSCRIPT | SESSION-ID | --last | --since D [flags]"},
		Short: "a past session (Claude Code, Codex, Gemini CLI, OpenCode or Qwen Code) played through the reducer offline",
		Long: "The rows are rebuilt from its transcript (rollout, session log, database) with their real durations; then come the " +
			"header (window, trend, where time and context went), the findings that need no model, the repeated calls with what " +
			"they cost, the largest context consumers and the compaction forecast.",
		Flags: fs, Run: c.run}
}

func (c *auditCmd) run(ctx context.Context, e cli.Env) int {
	if err := c.check(e.Args); err != nil {
		return e.UsageError(err.Error())
	}
	c.opt.Logs = c.logs.set()
	targets, err := audit.Targets(ctx, c.opt.Logs, c.query)
	if err != nil {
		fmt.Fprintf(e.Err, "saverd audit: %v\n", err)
		return 1
	}
	var audits []audit.Audit
	for _, t := range targets {
		if ctx.Err() != nil {
			fmt.Fprintf(e.Err, "saverd audit: %v\n", ctx.Err())
			return 1
		}
		a, err := audit.Run(ctx, c.opt, t)
		if err != nil {
			fmt.Fprintf(e.Err, "saverd audit: %v\n", err)
			if len(targets) == 1 {
				return 1
			}
			continue
		}
		for _, w := range a.Warnings {
			fmt.Fprintf(e.Err, "saverd audit: warning: %s\n", w)
		}
		audits = append(audits, a)
	}
	if err := audit.Write(e.Out, audits, c.format, c.width); err != nil {
		fmt.Fprintf(e.Err, "saverd audit: write output: %v\n", err)
		return 1
	}
	return 0
}

func (c *auditCmd) check(pos []string) error {
	chosen := len(pos)
	if c.last {
		chosen++
	}
	if c.since != "" {
		chosen++
		since, err := timespan.Since(c.since, time.Now())
		if err != nil {
			return err
		}
		c.query.Since = since
	}
	switch {
	case chosen == 0:
		return errors.New("name a TRANSCRIPT or SESSION-ID, or give --last or --since")
	case chosen > 1:
		return errors.New("give one of TRANSCRIPT, SESSION-ID, --last and --since")
	}
	if c.format != "text" && c.format != "json" {
		return fmt.Errorf("--format: want text or json, got %q", c.format)
	}
	if c.opt.JudgeTimeout <= 0 {
		return fmt.Errorf("--judge-timeout: want > 0, got %s", c.opt.JudgeTimeout)
	}
	if c.opt.Window < 0 {
		return fmt.Errorf("--window: want > 0, got %d", c.opt.Window)
	}
	c.query.Last = c.last
	if len(pos) == 1 {
		c.query.Name = pos[0]
	}
	return nil
}
