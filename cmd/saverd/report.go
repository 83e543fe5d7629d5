package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/report"
)

var reportUsage = `Usage:
  saverd report [flags]        one HTML page of where the money went: cost per day by agent and model, the
                               costliest sessions, cost per kept commit per repository week by week, and the
                               habits saverd found and fixed with what they saved

The page is one file with its styles and charts inline: it fetches nothing when it is opened.

Flags:
  --out FILE         where to write it (default saverd-report.html; - for stdout)
  --open             open it in the browser once written (xdg-open, open, or start)
  --since D          sessions active since D: a date (in --tz), RFC 3339, or an age (7d, 12h)
  --until D          sessions started before D (a date: the whole day is in)
  --tz ZONE          the IANA time zone of dates, days and weeks (default: local time)
  --repo DIR         repository impact scans (repeatable; default: the sessions' repositories)
  --days N           impact: sessions that ended within N days (default 30)
  --decisions FILE   impact's decide log
  --sessions-log F   the daemon's sessions log, read for the habits (default: the state directory's)
  --now TIME         RFC 3339 "now", for reproducible runs
  --git PATH         git binary (default: git on PATH)
` + logDirsHelp + `  --prices FILE      price overrides (default <config dir>/prices.json when it exists)
`

// reportCmd holds the flags of `saverd report`.
type reportCmd struct {
	logs        logFlags
	span        timespan.Span
	out         string
	open        bool
	sessionsLog string
	nowFlag     string
	now         time.Time
	opt         impact.Options
}

// runReport is `saverd report`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all or the page cannot be written.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &reportCmd{}
	fs := flag.NewFlagSet("saverd report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.register(fs)
	registerSpan(fs, &c.span)
	fs.StringVar(&c.out, "out", "saverd-report.html", "")
	fs.BoolVar(&c.open, "open", false, "")
	fs.Var((*stringList)(&c.opt.Repos), "repo", "")
	fs.IntVar(&c.opt.Days, "days", impact.DefaultDays, "")
	fs.StringVar(&c.opt.Decisions, "decisions", "", "")
	fs.StringVar(&c.sessionsLog, "sessions-log", "", "")
	fs.StringVar(&c.nowFlag, "now", "", "")
	fs.StringVar(&c.opt.Git, "git", "", "")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, reportUsage)
		return 0
	}
	if err != nil {
		return usageError(stderr, "report", reportUsage, "")
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "report", reportUsage, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := c.check(); err != nil {
		return usageError(stderr, "report", reportUsage, err.Error())
	}
	if err := c.run(ctx, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "saverd report: %v\n", err)
		return 1
	}
	return 0
}

func (c *reportCmd) check() error {
	now, err := timespan.Now(c.nowFlag)
	if err != nil {
		return err
	}
	c.now = now
	if c.opt.Days < 1 {
		return fmt.Errorf("--days: want ≥ 1, got %d", c.opt.Days)
	}
	if c.out == "" {
		return errors.New("--out: want a file name, or - for stdout")
	}
	if c.open && c.out == "-" {
		return errors.New("--open needs a file (--out FILE), not stdout")
	}
	if c.sessionsLog == "" {
		if p, err := paths.SessionsLog(); err == nil {
			c.sessionsLog = p
		}
	}
	c.opt.Now = c.now
	return c.span.Resolve(c.now)
}

// run reads the logs, runs impact over the same sessions, and writes the page.
func (c *reportCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	recs, warn, err := c.logs.set().Read(ctx, stderr)
	if err != nil {
		return err
	}
	in, err := report.Gather(ctx, recs, warn, report.Sources{Span: c.span, SessionsLog: c.sessionsLog, Impact: c.opt, Now: c.now})
	if err != nil {
		return err
	}
	for _, w := range in.Warnings {
		fmt.Fprintf(stderr, "saverd report: warning: %s\n", w)
	}
	var page bytes.Buffer
	if err := report.Write(&page, in); err != nil {
		return fmt.Errorf("draw the page: %w", err)
	}
	if c.out == "-" {
		_, err := stdout.Write(page.Bytes())
		return err
	}
	if err := writePage(c.out, page.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d sessions)\n", c.out, len(in.Sessions))
	if c.open {
		return openInBrowser(c.out)
	}
	return nil
}

// writePage writes the page whole (atomicfile): a browser reloading it meanwhile reads the last page or
// this one, never half of one. A link at path is written through and an existing page keeps its mode,
// as writing the file in place did.
func writePage(path string, page []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return atomicfile.Write(path, page, atomicfile.Mode(path, 0o644))
}

// openInBrowser hands the page to the desktop's opener and does not wait for the browser.
func openInBrowser(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", abs)
	case "windows":
		cmd = exec.Command("cmd", "/c", "start", "", abs)
	default:
		cmd = exec.Command("xdg-open", abs)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("--open: %w (the page is at %s)", err, abs)
	}
	return cmd.Process.Release()
}
