package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/saverd/saverd/agentlog"
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
	span    timespan.Span
	harness string
	active  bool
	format  string
	nowFlag string
	now     time.Time
}

// blocksReport is `saverd blocks --format json`.
type blocksReport struct {
	Blocks   []report.Block `json:"blocks"`
	Warnings []string       `json:"warnings"`
}

// runBlocks is `saverd blocks`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all (a bad prices file) or the output cannot be written.
func runBlocks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &blocksCmd{}
	fs := flag.NewFlagSet("saverd blocks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.register(fs)
	registerSpan(fs, &c.span)
	fs.StringVar(&c.harness, "harness", "", "")
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
	if err := c.write(stdout, blocksReport{Blocks: c.blocks(recs, agentlog.Options{Prices: tab}), Warnings: warn}); err != nil {
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
	if err := c.span.Resolve(c.now); err != nil {
		return err
	}
	h, err := parseHarness(c.harness)
	if err != nil {
		return err
	}
	c.harness = h
	switch c.format {
	case "":
		c.format = "json"
		if isTerminal(stdout) {
			c.format = "table"
		}
	case "table", "json":
	default:
		return fmt.Errorf("--format: want table or json, got %q", c.format)
	}
	return nil
}

// blocks cuts the calls the flags keep into windows.
func (c *blocksCmd) blocks(recs []agentlog.Record, o agentlog.Options) []report.Block {
	var calls []report.BlockCall
	for _, call := range report.Calls(recs, o) {
		if (c.harness == "" || call.Harness == c.harness) && c.span.Within(call.At) {
			calls = append(calls, call)
		}
	}
	blocks := report.Blocks(calls, c.now, c.span.Loc)
	if c.active {
		open := blocks[:0]
		for _, b := range blocks {
			if b.Active {
				open = append(open, b)
			}
		}
		blocks = open
	}
	if blocks == nil {
		blocks = []report.Block{}
	}
	return blocks
}

func (c *blocksCmd) write(w io.Writer, rep blocksReport) error {
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if c.format == "json" {
		return writeJSON(w, rep)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "START\tEND\tHARNESS\tSESSIONS\tCALLS\tTOKENS\tCOST\tPACE\t")
	for _, b := range rep.Blocks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", b.Start.Format("2006-01-02 15:04"), b.End.Format("15:04"),
			b.Harness, b.Sessions, b.Calls, tokens(b.Tokens.Total()), usd(b.Cost, b.Priced), pace(b))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Blocks) == 0 {
		buf.WriteString("no calls in the span asked for\n")
	}
	var unpriced group
	for _, b := range rep.Blocks {
		unpriced.Add(0, agentlog.Tokens{}, 0, b.Unpriced, 0)
	}
	writeUnpriced(&buf, unpriced)
	_, err := w.Write(trimRight(buf.Bytes()))
	return err
}

// pace is the open window's line: "active", and with a rate, "$2.10/h, $7.35 by 15:00 (1h40m left)".
func pace(b report.Block) string {
	switch {
	case !b.Active:
		return ""
	case b.Pace == nil:
		return "active"
	}
	p := b.Pace
	by := cents(p.ProjectedCost)
	if b.Cost == nil {
		by += "+"
	}
	return fmt.Sprintf("active: %s/h, %s by %s (%s left)", cents(p.USDPerHour), by, b.End.Format("15:04"),
		duration(time.Duration(p.RemainingMinutes)*time.Minute))
}
