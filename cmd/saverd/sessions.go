package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/report"
)

// sessionsCmd is `saverd sessions`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the
// logs cannot be read at all (a bad prices file) or the output cannot be written.
type sessionsCmd struct {
	logs   logFlags
	filter report.Filter
	by     string
	format string
}

func newSessionsCmd() *cli.Command {
	c := &sessionsCmd{}
	fs := cli.NewFlagSet()
	registerSpan(fs, &c.filter.Span, spanHelp{"sessions active", "sessions started", "days, weeks and months"})
	fs.String(&c.filter.Harness, "harness", "", "H", harnessHelp())
	fs.String(&c.filter.Repo, "repo", "", "DIR", "sessions whose git repository (or working directory) is DIR or inside it")
	fs.String(&c.by, "by", "", "K", strings.Join(report.Groupings[:len(report.Groupings)-1], ", ")+" or "+report.Groupings[len(report.Groupings)-1]+
		": one row per group instead of per session (a week is ISO 8601's, from Monday, named by that Monday's date)")
	formatFlag(fs, &c.format, "table, json, ndjson or csv")
	c.logs.register(fs)
	return &cli.Command{Short: "one row per agent session read from the agents' own logs: calls, tokens, cost, with totals",
		Long: "Reads Claude Code's transcripts, Codex's rollouts, Gemini CLI's session logs, OpenCode's database and Qwen Code's chats. " +
			"Every call is priced at the price in force on its date; a model with no price has no cost (null, and a warning), never 0.",
		Flags: fs, Run: c.run}
}

func (c *sessionsCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	if err := c.check(time.Now(), e.Out); err != nil {
		return e.UsageError(err.Error())
	}
	recs, warn, err := c.logs.set().Read(ctx, e.Err)
	if err != nil {
		fmt.Fprintf(e.Err, "saverd sessions: %v\n", err)
		return 1
	}
	for _, w := range warn {
		fmt.Fprintf(e.Err, "saverd sessions: warning: %s\n", w)
	}
	out := report.Sessions{Records: c.filter.Keep(recs), Warnings: warn, By: c.by, Loc: c.filter.Span.Loc}
	if err := out.Write(e.Out, c.format); err != nil {
		fmt.Fprintf(e.Err, "saverd sessions: write output: %v\n", err)
		return 1
	}
	return 0
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
	if c.format, err = pickFormat(c.format, stdout, "table", "json", "ndjson", "csv"); err != nil {
		return err
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

// pickFormat checks --format against the formats a command writes; "" is a table on a terminal, else
// json.
func pickFormat(format string, stdout io.Writer, formats ...string) (string, error) {
	if format == "" {
		if textout.IsTerminal(stdout) {
			return "table", nil
		}
		return "json", nil
	}
	if !slices.Contains(formats, format) {
		return "", fmt.Errorf("--format: want %s or %s, got %q", strings.Join(formats[:len(formats)-1], ", "), formats[len(formats)-1], format)
	}
	return format, nil
}
