package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/report"
)

// reportCmd is `saverd report`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all or the page cannot be written.
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

func newReportCmd() *cli.Command {
	c := &reportCmd{}
	fs := cli.NewFlagSet()
	fs.String(&c.out, "out", "saverd-report.html", "FILE", "where to write it (default saverd-report.html; - for stdout)")
	fs.Bool(&c.open, "open", false, "open it in the browser once written (xdg-open, open, or start)")
	registerSpan(fs, &c.span, spanHelp{"sessions active", "sessions started", "days and weeks"})
	fs.Var((*cli.StringList)(&c.opt.Repos), "repo", "DIR", "repository impact scans (repeatable; default: the sessions' repositories)")
	fs.Int(&c.opt.Days, "days", impact.DefaultDays, "N", fmt.Sprintf("impact: sessions that ended within N days (default %d)", impact.DefaultDays))
	fs.String(&c.opt.Decisions, "decisions", "", "FILE", "impact's decide log")
	fs.String(&c.sessionsLog, "sessions-log", "", "F", "the daemon's sessions log, read for the habits (default: the state directory's)")
	fs.String(&c.nowFlag, "now", "", "TIME", `RFC 3339 "now", for reproducible runs`)
	fs.String(&c.opt.Git, "git", "", "PATH", "git binary (default: git on PATH)")
	c.logs.register(fs)
	return &cli.Command{Short: "one HTML page of where the money went: cost per day by agent and model, the costliest sessions, " +
		"cost per kept commit per repository week by week, and the habits saverd found and fixed with what they saved",
		Long:  "The page is one file with its styles and charts inline: it fetches nothing when it is opened.",
		Flags: fs, Run: c.run}
}

func (c *reportCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	if err := c.check(); err != nil {
		return e.UsageError(err.Error())
	}
	if err := c.write(ctx, e.Out, e.Err); err != nil {
		fmt.Fprintf(e.Err, "saverd report: %v\n", err)
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

// write reads the logs, runs impact over the same sessions, and writes the page.
func (c *reportCmd) write(ctx context.Context, stdout, stderr io.Writer) error {
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
