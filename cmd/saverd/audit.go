package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/saverd/saverd/audit"
	"github.com/saverd/saverd/internal/timespan"
)

var auditUsage = `Usage:
  saverd audit TRANSCRIPT | SESSION-ID | --last | --since D [flags]
      A past session (Claude Code, Codex, Gemini CLI, OpenCode or Qwen Code) played through the reducer
      offline: the rows rebuilt from its transcript (rollout, session log, database) with their real durations, then the header (window, trend, where time and
      context went), the repeated calls with what they cost, the largest context consumers and the
      compaction forecast.

Flags:
  --judge            also run the habit judge over it through the fork command (claude -p --resume
                     <session> --fork-session, codex exec for a Codex session, or $SAVERD_JUDGE_CMD /
                     the config file's judgeCommand / codexJudgeCommand, which Gemini CLI's, OpenCode's
                     and Qwen Code's sessions need) and print its cards
  --judge-timeout D  how long the judge may take (default 10m)
  --last             the most recently written session
  --since D          every session active since D (a date, RFC 3339, or an age: 7d, 12h)
  --format F         text or json (default text)
  --width N          text width (default 100)
  --window N         context window in tokens (default: the model's, else 200000)
` + logDirsHelp

// auditCmd holds the flags of `saverd audit`.
type auditCmd struct {
	logs   logFlags
	opt    audit.Options
	last   bool
	since  string
	format string
	width  int
	query  audit.Query // what the arguments and flags ask for, once checked
}

// runAudit is `saverd audit`: 0 on success, 2 on a usage error, 1 when no transcript can be read.
func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &auditCmd{}
	fs := flag.NewFlagSet("saverd audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.registerDirs(fs)
	fs.BoolVar(&c.last, "last", false, "")
	fs.BoolVar(&c.opt.Judge, "judge", false, "")
	fs.DurationVar(&c.opt.JudgeTimeout, "judge-timeout", 10*time.Minute, "")
	fs.StringVar(&c.since, "since", "", "")
	fs.StringVar(&c.format, "format", "text", "")
	fs.IntVar(&c.width, "width", 100, "")
	fs.Int64Var(&c.opt.Window, "window", 0, "")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, auditUsage)
		return 0
	}
	if err != nil {
		return auditUsageError(stderr, "")
	}
	if err := c.check(pos); err != nil {
		return auditUsageError(stderr, err.Error())
	}
	c.opt.Logs = c.logs.set()
	paths, err := audit.Targets(ctx, c.opt.Logs, c.query)
	if err != nil {
		fmt.Fprintf(stderr, "saverd audit: %v\n", err)
		return 1
	}
	var audits []audit.Audit
	for _, p := range paths {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "saverd audit: %v\n", ctx.Err())
			return 1
		}
		a, err := audit.Run(ctx, c.opt, p)
		if err != nil {
			fmt.Fprintf(stderr, "saverd audit: %v\n", err)
			if len(paths) == 1 {
				return 1
			}
			continue
		}
		for _, w := range a.Warnings {
			fmt.Fprintf(stderr, "saverd audit: warning: %s\n", w)
		}
		audits = append(audits, a)
	}
	if err := audit.Write(stdout, audits, c.format, c.width); err != nil {
		fmt.Fprintf(stderr, "saverd audit: write output: %v\n", err)
		return 1
	}
	return 0
}

func auditUsageError(stderr io.Writer, msg string) int {
	return usageError(stderr, "audit", auditUsage, msg)
}

// usageError says what was wrong with a subcommand's arguments, then its usage, and is exit code 2.
func usageError(stderr io.Writer, cmd, usage, msg string) int {
	if msg != "" {
		fmt.Fprintf(stderr, "saverd %s: %s\n", cmd, msg)
	}
	fmt.Fprint(stderr, usage)
	return 2
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
