package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/report"
)

var blocksUsage = `Usage:
  saverd blocks [flags]        the 5-hour windows a subscription counts, per harness, from the agents' own logs

A window starts at its first call's hour and holds the calls until one comes more than five hours after
the window's start or after the call before it (as ccusage's blocks). The open window shows its pace: the
priced spend per hour so far and what the window comes to at its end at that rate.

Flags:
  --since D          calls since D: a date (2026-11-01 or 20261101, in --tz), RFC 3339, or an age (7d, 12h)
  --until D          calls before D: a date (the whole day is in), RFC 3339, or an age
  --tz ZONE          the IANA time zone of dates and of the times shown (default: local time)
  --harness H        claude-code, codex, gemini, opencode or qwen-code (qwen)
  --active           only the window still open
  --format F         table or json (default: table on a terminal, else json)
  --now TIME         RFC 3339 "now", for reproducible runs (which window is open, its pace)
` + logDirsHelp + `  --prices FILE      price overrides (default <config dir>/prices.json when it exists)
`

// blocksCmd holds the flags of `saverd blocks`.
type blocksCmd struct {
	logs    logFlags
	filter  report.Filter // its span and harness; blocks has no --repo
	active  bool
	format  string
	nowFlag string
	now     time.Time
}

// runBlocks is `saverd blocks`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all (a bad prices file) or the output cannot be written.
func runBlocks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &blocksCmd{}
	fs := flag.NewFlagSet("saverd blocks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.register(fs)
	registerSpan(fs, &c.filter.Span)
	fs.StringVar(&c.filter.Harness, "harness", "", "")
	fs.BoolVar(&c.active, "active", false, "")
	fs.StringVar(&c.format, "format", "", "")
	fs.StringVar(&c.nowFlag, "now", "", "")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, blocksUsage)
		return 0
	}
	if err != nil {
		return usageError(stderr, "blocks", blocksUsage, "")
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "blocks", blocksUsage, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := c.check(stdout); err != nil {
		return usageError(stderr, "blocks", blocksUsage, err.Error())
	}
	if err := c.run(ctx, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "saverd blocks: %v\n", err)
		return 1
	}
	return 0
}

// run reads the logs and writes the windows; warnings go to stderr as they are found.
func (c *blocksCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	recs, warn, err := c.logs.set().Read(ctx, stderr)
	if err != nil {
		return err
	}
	tab, err := c.logs.set().Table()
	if err != nil {
		return err
	}
	for _, w := range warn {
		fmt.Fprintf(stderr, "saverd blocks: warning: %s\n", w)
	}
	rep := report.BlocksReport{Blocks: report.KeepBlocks(recs, agentlog.Options{Prices: tab}, &c.filter, c.now, c.active), Warnings: warn}
	if err := rep.Write(stdout, c.format); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

func (c *blocksCmd) check(stdout io.Writer) error {
	now, err := timespan.Now(c.nowFlag)
	if err != nil {
		return err
	}
	c.now = now
	if err := c.filter.Span.Resolve(c.now); err != nil {
		return err
	}
	h, err := parseHarness(c.filter.Harness)
	if err != nil {
		return err
	}
	c.filter.Harness = h
	switch c.format {
	case "":
		c.format = "json"
		if textout.IsTerminal(stdout) {
			c.format = "table"
		}
	case "table", "json":
	default:
		return fmt.Errorf("--format: want table or json, got %q", c.format)
	}
	return nil
}
