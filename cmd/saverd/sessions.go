package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/report"
)

var sessionsUsage = `Usage:
  saverd sessions [flags]      one row per agent session read from the agents' own logs, with totals

Flags:
  --since D          sessions active since D: a date (2026-11-01 or 20261101, in --tz), RFC 3339, or an age (7d, 12h)
  --until D          sessions started before D: a date (the whole day is in), RFC 3339, or an age
  --tz ZONE          the IANA time zone of dates and of days, weeks and months (default: local time)
  --harness H        claude-code, codex, gemini, opencode or qwen-code (qwen)
  --repo DIR         sessions whose git repository (or working directory) is DIR or inside it
  --by K             day, week, month, model, project or harness: one row per group instead of per session
                     (a week is ISO 8601's, from Monday, named by that Monday's date)
  --format F         table, json, ndjson or csv (default: table on a terminal, else json)
` + logDirsHelp + `  --prices FILE      price overrides (default <config dir>/prices.json when it exists)
`

// sessionsCmd holds the flags of `saverd sessions`.
type sessionsCmd struct {
	logs   logFlags
	filter report.Filter
	by     string
	format string
}

// runSessions is `saverd sessions`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all (a bad prices file) or the output cannot be written.
func runSessions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &sessionsCmd{}
	fs := flag.NewFlagSet("saverd sessions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.register(fs)
	registerSpan(fs, &c.filter.Span)
	fs.StringVar(&c.filter.Harness, "harness", "", "")
	fs.StringVar(&c.filter.Repo, "repo", "", "")
	fs.StringVar(&c.by, "by", "", "")
	fs.StringVar(&c.format, "format", "", "")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, sessionsUsage)
		return 0
	}
	if err != nil {
		return sessionsUsageError(stderr, "")
	}
	if fs.NArg() > 0 {
		return sessionsUsageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := c.check(time.Now(), stdout); err != nil {
		return sessionsUsageError(stderr, err.Error())
	}
	recs, warn, err := c.logs.set().Read(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "saverd sessions: %v\n", err)
		return 1
	}
	for _, w := range warn {
		fmt.Fprintf(stderr, "saverd sessions: warning: %s\n", w)
	}
	out := report.Sessions{Records: c.filter.Keep(recs), Warnings: warn, By: c.by, Loc: c.filter.Span.Loc}
	if err := out.Write(stdout, c.format); err != nil {
		fmt.Fprintf(stderr, "saverd sessions: write output: %v\n", err)
		return 1
	}
	return 0
}

func sessionsUsageError(stderr io.Writer, msg string) int {
	return usageError(stderr, "sessions", sessionsUsage, msg)
}

func (c *sessionsCmd) check(now time.Time, stdout io.Writer) error {
	if err := c.filter.Span.Resolve(now); err != nil {
		return err
	}
	h, err := parseHarness(c.filter.Harness)
	if err != nil {
		return err
	}
	c.filter.Harness = h
	if c.by != "" && !slices.Contains(report.Groupings, c.by) {
		return fmt.Errorf("--by: want %s, got %q", strings.Join(report.Groupings, ", "), c.by)
	}
	switch c.format {
	case "":
		c.format = "json"
		if textout.IsTerminal(stdout) {
			c.format = "table"
		}
	case "table", "json", "ndjson", "csv":
	default:
		return fmt.Errorf("--format: want table, json, ndjson or csv, got %q", c.format)
	}
	if c.filter.Repo != "" {
		dir, err := report.RepoDir(c.filter.Repo)
		if err != nil {
			return err
		}
		c.filter.Repo = dir
	}
	return nil
}
