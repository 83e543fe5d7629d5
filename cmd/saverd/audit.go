package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/intake"
	"github.com/saverd/saverd/state/view"
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
	last   bool
	judge  bool
	wait   time.Duration
	since  string
	format string
	width  int
	window int64
}

// runAudit is `saverd audit`: 0 on success, 2 on a usage error, 1 when no transcript can be read.
func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &auditCmd{}
	fs := flag.NewFlagSet("saverd audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.registerDirs(fs)
	fs.BoolVar(&c.last, "last", false, "")
	fs.BoolVar(&c.judge, "judge", false, "")
	fs.DurationVar(&c.wait, "judge-timeout", 10*time.Minute, "")
	fs.StringVar(&c.since, "since", "", "")
	fs.StringVar(&c.format, "format", "text", "")
	fs.IntVar(&c.width, "width", 100, "")
	fs.Int64Var(&c.window, "window", 0, "")
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
	paths, err := c.targets(ctx, pos)
	if err != nil {
		fmt.Fprintf(stderr, "saverd audit: %v\n", err)
		return 1
	}
	var audits []audit
	for _, p := range paths {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "saverd audit: %v\n", ctx.Err())
			return 1
		}
		a, err := c.audit(ctx, p)
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
	if err := c.write(stdout, audits); err != nil {
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
		if _, err := timespan.Since(c.since, time.Now()); err != nil {
			return err
		}
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
	if c.wait <= 0 {
		return fmt.Errorf("--judge-timeout: want > 0, got %s", c.wait)
	}
	if c.window < 0 {
		return fmt.Errorf("--window: want > 0, got %d", c.window)
	}
	return nil
}

func joinWarnings(w []string) string {
	if len(w) == 0 {
		return ""
	}
	return ": " + strings.Join(w, "; ")
}

// audit is one session's audit, as the json format prints it.
type audit struct {
	Harness    string               `json:"harness"`
	SessionID  string               `json:"sessionId"`
	Transcript string               `json:"transcript"`
	Cwd        string               `json:"cwd"`
	Model      string               `json:"model"`
	Window     int64                `json:"window"`
	Turns      int                  `json:"turns"`
	Calls      int                  `json:"calls"`
	Rows       int                  `json:"rows"`
	Header     view.Header          `json:"header"`
	Findings   []auditFinding       `json:"findings"`
	Repeated   []detect.Repeat      `json:"repeated"`
	Largest    []state.Row          `json:"largest"`
	Forecast   forecast             `json:"forecast"`
	Warnings   []string             `json:"warnings"`
	TurnUsage  []agentlog.TurnUsage `json:"turnUsage"`
	Judge      *auditJudge          `json:"judge,omitempty"`

	st *state.State
}

// forecast is when the window compacts: tokens left and turns left at the recent pace (null: unknown).
type forecast struct {
	Tokens             *int64 `json:"tokens"`
	TokensToCompaction *int64 `json:"tokensToCompaction"`
	TurnsToCompaction  *int64 `json:"turnsToCompaction"`
}

// largestShown is how many of the largest context consumers are listed.
const largestShown = 5

func (c *auditCmd) audit(ctx context.Context, target auditTarget) (audit, error) {
	tr, err := target.read()
	if err != nil {
		return audit{}, err
	}
	path := target.path
	if len(tr.Messages) == 0 && len(tr.Turns) == 0 {
		why := "no session line in it"
		if len(tr.Warnings) > 0 {
			why += " (" + tr.Warnings[0] + ")"
		}
		return audit{}, fmt.Errorf("%s: nothing to audit: %s", path, why)
	}
	window := c.window
	if window == 0 {
		window = bridge.ModelWindow(tr.Model)
	}
	tab, err := c.logs.set().Table()
	if err != nil {
		return audit{}, err
	}
	st := replay(tr, window, tab)
	sess := detectSession(tr, st)
	a := audit{
		Harness: tr.Harness, SessionID: tr.SessionID, Transcript: path, Cwd: tr.Cwd, Model: tr.Model, Window: window,
		Turns: len(tr.Turns), Rows: len(st.Rows), Warnings: tr.Warnings,
		Findings: findingsOf(st, detect.Run(sess)), Repeated: repeatsOf(st, detect.Repeats(sess)),
		Largest: largest(st.Rows), TurnUsage: tr.Turns, st: st,
		Forecast: forecast{Tokens: st.Usage.Tokens, TokensToCompaction: state.TokensToCompaction(st), TurnsToCompaction: state.TurnsToCompaction(st)},
	}
	for _, t := range tr.Turns {
		a.Calls += t.Calls
	}
	if c.judge {
		// The judge weighs the session as it was, not the detectors' findings: what it confirms, it
		// found on its own.
		j, err := runJudgeFork(ctx, c.wait, tr, st, tab, func(w string) { a.Warnings = append(a.Warnings, w) })
		if err != nil {
			a.Warnings = append(a.Warnings, err.Error()) // the audit stands without the judge's cards
		} else {
			a.Judge = j
			a.Findings = confirm(st, a.Findings, j.found)
		}
	}
	showDetected(st, a.Findings)
	a.Header = view.HeaderOf(st)
	if a.Warnings == nil {
		a.Warnings = []string{}
	}
	return a, nil
}

// replay plays the transcript through the reducer the way session.start adopts one, turn by turn: the
// turn starts, its rows (rebuilt by state.AdoptRows, with the durations the transcript's timestamps give)
// are adopted, the turn completes with its usage and the window is sampled. The session's model is
// priced from tab, as the daemon prices a live one, so what a judge run costs reads in dollars.
func replay(tr agentlog.Transcript, window int64, tab *prices.Table) *state.State {
	st := state.New(tr.Cwd, window)
	if tr.Model != "" {
		state.Reduce(st, handlers.PriceOf(handlers.TablePrices{Table: tab}, tr.Model, lastTurnEnd(tr)))
	}
	rows := intake.AdoptRows(tr.Messages)
	for i := range rows {
		rows[i].Ms = tr.Durations[rows[i].ID]
	}
	byTurn := map[int][]state.Row{}
	for _, r := range rows {
		byTurn[r.Turn] = append(byTurn[r.Turn], r)
	}
	turns := max(len(tr.Turns), 1)
	for t := 1; t <= turns; t++ {
		var u agentlog.TurnUsage
		if t <= len(tr.Turns) {
			u = tr.Turns[t-1]
		}
		state.Reduce(st, state.TurnStart{Now: u.Start.UnixMilli()})
		if slices.Contains(tr.Compactions, t) {
			state.Reduce(st, state.Compact{})
		}
		if rs := byTurn[t]; len(rs) > 0 {
			state.Reduce(st, state.Adopt{Rows: rs})
		}
		if t > len(tr.Turns) {
			continue
		}
		stat := state.TurnStat{Input: u.Tokens.Input, Output: u.Tokens.Output, CacheRead: u.Tokens.CacheRead,
			CacheCreate: u.Tokens.CacheWrite, Ms: u.End.Sub(u.Start).Milliseconds(), At: u.End.UnixMilli()}
		if u.Context > 0 {
			stat.Context = new(u.Context)
			state.Reduce(st, state.UsageSample{Usage: state.Usage{Tokens: new(u.Context), Window: window}, Now: u.End.UnixMilli()})
		}
		state.Reduce(st, state.TurnComplete{Stat: stat})
	}
	return st
}

// lastTurnEnd is when the transcript's last turn ended, the time its prices are read at; now when it
// has none.
func lastTurnEnd(tr agentlog.Transcript) time.Time {
	if n := len(tr.Turns); n > 0 && !tr.Turns[n-1].End.IsZero() {
		return tr.Turns[n-1].End
	}
	return time.Now()
}

// largest is the rows that put the most into the context.
func largest(rows []state.Row) []state.Row {
	out := append([]state.Row(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Chars > out[j].Chars })
	if len(out) > largestShown {
		out = out[:largestShown]
	}
	return out
}
