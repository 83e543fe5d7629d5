package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/report"
)

// blocksCmd is `saverd blocks`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all (a bad prices file) or the output cannot be written.
type blocksCmd struct {
	logs    logFlags
	filter  report.Filter // its span and harness; blocks has no --repo
	active  bool
	format  string
	nowFlag string
	now     time.Time
}

func newBlocksCmd() *cli.Command {
	c := &blocksCmd{}
	fs := cli.NewFlagSet()
	registerSpan(fs, &c.filter.Span, spanHelp{"calls", "calls", "the times shown"})
	fs.String(&c.filter.Harness, "harness", "", "H", harnessHelp())
	fs.Bool(&c.active, "active", false, "only the window still open")
	formatFlag(fs, &c.format, "table or json")
	fs.String(&c.nowFlag, "now", "", "TIME", `RFC 3339 "now", for reproducible runs (which window is open, its pace)`)
	c.logs.register(fs)
	return &cli.Command{Short: "the 5-hour windows a subscription counts, per harness, from the agents' own logs: spend, and the open window's pace",
		Long: "A window starts at its first call's hour and holds the calls until one comes more than five hours after the window's " +
			"start or after the call before it (as ccusage's blocks). The open window shows its pace: the priced spend per hour so far " +
			"and what the window comes to at its end at that rate.",
		Flags: fs, Run: c.run}
}

func (c *blocksCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	if err := c.check(e.Out); err != nil {
		return e.UsageError(err.Error())
	}
	if err := c.write(ctx, e.Out, e.Err); err != nil {
		fmt.Fprintf(e.Err, "saverd blocks: %v\n", err)
		return 1
	}
	return 0
}

// write reads the logs and writes the windows; warnings go to stderr as they are found.
func (c *blocksCmd) write(ctx context.Context, stdout, stderr io.Writer) error {
	logs := c.logs.set()
	recs, warn, err := logs.Read(ctx, stderr)
	if err != nil {
		return err
	}
	tab, err := logs.Table()
	if err != nil {
		return err
	}
	for _, w := range warn {
		fmt.Fprintf(stderr, "saverd blocks: warning: %s\n", w)
	}
	rep := report.BlocksReport{Blocks: report.KeepBlocks(recs, agentlog.Options{Prices: tab}, &c.filter, c.now, c.active), Warnings: warn,
		None: report.NoBlocks(&c.filter, c.active)}
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
	c.format, err = pickFormat(c.format, stdout, "table", "json")
	return err
}
