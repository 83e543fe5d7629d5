package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/textout"
)

// impactCmd is `saverd impact`: 0 on success (warnings included), 2 on a usage error, 1 when the
// analysis or the decision cannot be done.
type impactCmd struct {
	opt    impact.Options
	logs   logFlags
	format string
	now    string
	yes    string
}

func newImpactCmd() *cli.Command {
	c := &impactCmd{}
	fs := cli.NewFlagSet()
	fs.Var((*cli.StringList)(&c.opt.Sessions), "sessions", "FILE", "sessions JSONL file (repeatable); without it, the agents' own logs "+
		"(Claude Code's transcripts, Codex's rollouts, Gemini CLI's, OpenCode's and Qwen Code's sessions) and the daemon's sessions log "+
		"are read, from the directories below")
	c.logs.registerDirs(fs, "with no --sessions: ")
	fs.String(&c.logs.prices, "prices", "", "FILE", pricesHelp("with no --sessions: "))
	c.logs.registerCache(fs, "with no --sessions: ")
	fs.Var((*cli.StringList)(&c.opt.Repos), "repo", "DIR", "repository to scan (repeatable; default: the sessions' repos)")
	fs.String(&c.opt.Decisions, "decisions", "", "FILE", "the decide log, decisions.jsonl")
	fs.Int(&c.opt.Days, "days", impact.DefaultDays, "N", fmt.Sprintf("sessions that ended within N days (default %d)", impact.DefaultDays))
	formatFlag(fs, &c.format, "json or table")
	fs.String(&c.now, "now", "", "TIME", `the analysis' "now", RFC 3339 (default: the clock)`)
	fs.String(&c.opt.Git, "git", "", "PATH", "git binary (default: git from PATH)")
	fs.String(&c.yes, "yes", "", "P", "decide: probability that the session made the commits")
	return &cli.Command{Usage: []string{"[flags]", "pending [flags]", "decide SUBJECT --yes P --decisions FILE"},
		Short: "link commits to agent sessions and report what each kept commit cost",
		Long: "impact reports the linked and pending records with a cost summary; impact pending lists the subjects waiting for a " +
			"commit_link decision; impact decide records one (no = 1 − P).",
		Flags: fs, Run: c.run}
}

func (c *impactCmd) run(ctx context.Context, e cli.Env) int {
	sub, pos := "query", e.Args
	if len(e.Args) > 0 && (e.Args[0] == "pending" || e.Args[0] == "decide") {
		sub, pos = e.Args[0], e.Args[1:]
	}
	if err := c.check(sub, pos, e.Out); err != nil {
		return e.UsageError(err.Error())
	}
	if sub == "decide" {
		return c.decide(pos[0], e)
	}
	if textout.IsTerminal(e.Err) {
		c.opt.Progress = e.Err
	}
	var logWarn []string
	if len(c.opt.Sessions) == 0 {
		w, err := c.readLogs(ctx, e.Err)
		if err != nil {
			fmt.Fprintf(e.Err, "saverd impact: %v\n", err)
			return 1
		}
		logWarn = w
	}
	rep, err := impact.Query(ctx, c.opt)
	if err != nil {
		fmt.Fprintf(e.Err, "saverd impact: %v\n", err)
		return 1
	}
	if len(logWarn) > 0 {
		rep.Warnings = append(logWarn, rep.Warnings...)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.Err, "saverd impact: warning: %s\n", w)
	}
	if err := rep.Write(e.Out, c.format, sub == "pending"); err != nil {
		fmt.Fprintf(e.Err, "saverd impact: write output: %v\n", err)
		return 1
	}
	return 0
}

// check validates the flags for the subcommand and fills in what they
// imply (the clock, the default format).
func (c *impactCmd) check(sub string, pos []string, stdout io.Writer) error {
	if c.now != "" {
		t, err := time.Parse(time.RFC3339, c.now)
		if err != nil {
			return fmt.Errorf("--now: want RFC 3339 (2025-06-02T15:04:05Z), got %q", c.now)
		}
		c.opt.Now = t
	}
	if sub == "decide" {
		return c.checkDecide(pos)
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	if c.opt.Days < 1 {
		return fmt.Errorf("--days: want ≥ 1, got %d", c.opt.Days)
	}
	var err error
	c.format, err = pickFormat(c.format, stdout, "json", "table")
	return err
}

// readLogs fills the options with the sessions of the agents' own logs and the daemon's sessions log.
func (c *impactCmd) readLogs(ctx context.Context, stderr io.Writer) ([]string, error) {
	found, warn, err := c.logs.set().ReadLocal(ctx, stderr)
	if err != nil {
		return nil, err
	}
	c.opt.Found = append(c.opt.Found, found...)
	return warn, nil
}

func (c *impactCmd) checkDecide(pos []string) error {
	if len(pos) != 1 {
		return errors.New("decide takes exactly one SUBJECT")
	}
	if c.yes == "" {
		return errors.New("decide needs --yes P")
	}
	if c.opt.Decisions == "" {
		return errors.New("decide needs --decisions FILE")
	}
	p, err := strconv.ParseFloat(c.yes, 64)
	if err != nil || p < 0 || p > 1 {
		return fmt.Errorf("--yes: want a probability in [0, 1], got %q", c.yes)
	}
	return nil
}

func (c *impactCmd) decide(subject string, e cli.Env) int {
	p, _ := strconv.ParseFloat(c.yes, 64) // checked in checkDecide
	now := c.opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	err := impact.Decide(c.opt.Decisions, subject, p, now)
	if errors.Is(err, impact.ErrInvalidDecision) {
		return e.UsageError(err.Error())
	}
	if err != nil {
		fmt.Fprintf(e.Err, "saverd impact: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.Out, "recorded %s yes=%v in %s\n", subject, p, c.opt.Decisions)
	return 0
}
