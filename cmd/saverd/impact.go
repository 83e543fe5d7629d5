package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/textout"
)

var impactUsage = `Usage:
  saverd impact [flags]                  report linked and pending records with a cost summary
  saverd impact pending [flags]          list the subjects waiting for a commit_link decision
  saverd impact decide SUBJECT --yes P --decisions FILE
                                         record a commit_link decision (no = 1 − P)

Flags:
  --sessions FILE    sessions JSONL file (repeatable); without it, the agents' own logs (Claude Code's
                     transcripts, Codex's rollouts, Gemini CLI's, OpenCode's and Qwen Code's sessions) and
                     the daemon's sessions log are read, from these directories:
` + logDirsHelp + `  --prices FILE      with no --sessions: price overrides (default <config dir>/prices.json)
  --repo DIR         repository to scan (repeatable; default: the sessions' repos)
  --decisions FILE   the decide log, decisions.jsonl
  --days N           sessions that ended within N days (default 30)
  --format F         json or table (default: table on a terminal, else json)
  --now TIME         the analysis' "now", RFC 3339 (default: the clock)
  --git PATH         git binary (default: git from PATH)
  --yes P            decide: probability that the session made the commits
`

// impactCmd holds the flags of `saverd impact`.
type impactCmd struct {
	opt    impact.Options
	logs   logFlags
	format string
	now    string
	yes    string
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// runImpact is `saverd impact`: 0 on success (warnings included), 2 on a
// usage error, 1 when the analysis or the decision cannot be done.
func runImpact(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub := "query"
	if len(args) > 0 && (args[0] == "pending" || args[0] == "decide") {
		sub, args = args[0], args[1:]
	}
	c := &impactCmd{}
	fs := flag.NewFlagSet("saverd impact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	fs.Var((*stringList)(&c.opt.Sessions), "sessions", "")
	c.logs.register(fs)
	fs.Var((*stringList)(&c.opt.Repos), "repo", "")
	fs.StringVar(&c.opt.Decisions, "decisions", "", "")
	fs.IntVar(&c.opt.Days, "days", impact.DefaultDays, "")
	fs.StringVar(&c.format, "format", "", "")
	fs.StringVar(&c.now, "now", "", "")
	fs.StringVar(&c.opt.Git, "git", "", "")
	fs.StringVar(&c.yes, "yes", "", "")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, impactUsage)
		return 0
	}
	if err != nil {
		return impactUsageError(stderr, "") // flag already said what was wrong
	}
	if err := c.check(sub, pos, stdout); err != nil {
		return impactUsageError(stderr, err.Error())
	}
	if sub == "decide" {
		return c.decide(pos[0], stdout, stderr)
	}
	if textout.IsTerminal(stderr) {
		c.opt.Progress = stderr
	}
	var logWarn []string
	if len(c.opt.Sessions) == 0 {
		w, err := c.readLogs(ctx, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "saverd impact: %v\n", err)
			return 1
		}
		logWarn = w
	}
	rep, err := impact.Query(ctx, c.opt)
	if err != nil {
		fmt.Fprintf(stderr, "saverd impact: %v\n", err)
		return 1
	}
	if len(logWarn) > 0 {
		rep.Warnings = append(logWarn, rep.Warnings...)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "saverd impact: warning: %s\n", w)
	}
	if err := rep.Write(stdout, c.format, sub == "pending"); err != nil {
		fmt.Fprintf(stderr, "saverd impact: write output: %v\n", err)
		return 1
	}
	return 0
}

// parseInterleaved parses flags that may come before and after positional
// arguments (decide SUBJECT --yes P), which flag.Parse alone stops at.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
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
	switch c.format {
	case "":
		c.format = "json"
		if textout.IsTerminal(stdout) {
			c.format = "table"
		}
	case "json", "table":
	default:
		return fmt.Errorf("--format: want json or table, got %q", c.format)
	}
	return nil
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

func (c *impactCmd) decide(subject string, stdout, stderr io.Writer) int {
	p, _ := strconv.ParseFloat(c.yes, 64) // checked in checkDecide
	now := c.opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	err := impact.Decide(c.opt.Decisions, subject, p, now)
	if errors.Is(err, impact.ErrInvalidDecision) {
		return impactUsageError(stderr, err.Error())
	}
	if err != nil {
		fmt.Fprintf(stderr, "saverd impact: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "recorded %s yes=%v in %s\n", subject, p, c.opt.Decisions)
	return 0
}

func impactUsageError(stderr io.Writer, msg string) int {
	return usageError(stderr, "impact", impactUsage, msg)
}
