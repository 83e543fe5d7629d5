// Package audit plays a past agent session through the reducer offline (`saverd audit`): the rows rebuilt
// from its log with their real durations, the detectors' findings with what each waste took, the calls
// truly repeated, the largest context consumers and the compaction forecast, and with the judge asked,
// its findings beside the detectors' (confirmed or its own), its fork priced and recorded as the daemon's are.
package audit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/logset"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/intake"
	"github.com/saverd/saverd/state/view"
)

func joinWarnings(w []string) string {
	if len(w) == 0 {
		return ""
	}
	return ": " + strings.Join(w, "; ")
}

// Options says how to audit a session.
type Options struct {
	Logs         logset.Set    // where the agents' logs and the prices are
	Window       int64         // the context window in tokens; 0: the model's
	Judge        bool          // also run the habit judge through the fork command
	JudgeTimeout time.Duration // how long the judge may take
}

// Audit is one session's audit, as the json format prints it.
type Audit struct {
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
	Findings   []Finding            `json:"findings"`
	Repeated   []detect.Repeat      `json:"repeated"`
	Largest    []state.Row          `json:"largest"`
	Forecast   Forecast             `json:"forecast"`
	Warnings   []string             `json:"warnings"`
	TurnUsage  []agentlog.TurnUsage `json:"turnUsage"`
	Judge      *Judge               `json:"judge,omitempty"`

	st *state.State
}

// Forecast is when the window compacts: tokens left and turns left at the recent pace (null: unknown).
type Forecast struct {
	Tokens             *int64 `json:"tokens"`
	TokensToCompaction *int64 `json:"tokensToCompaction"`
	TurnsToCompaction  *int64 `json:"turnsToCompaction"`
}

// largestShown is how many of the largest context consumers are listed.
const largestShown = 5

// Run audits one session.
func Run(ctx context.Context, o Options, target Target) (Audit, error) {
	tr, err := target.read()
	if err != nil {
		return Audit{}, err
	}
	path := target.path
	if len(tr.Messages) == 0 && len(tr.Turns) == 0 {
		why := "no session line in it"
		if len(tr.Warnings) > 0 {
			why += " (" + tr.Warnings[0] + ")"
		}
		return Audit{}, fmt.Errorf("%s: nothing to audit: %s", path, why)
	}
	window := o.Window
	if window == 0 {
		window = bridge.ModelWindow(tr.Model)
	}
	tab, err := o.Logs.Table()
	if err != nil {
		return Audit{}, err
	}
	st := Replay(tr, window, tab)
	sess := DetectSession(tr, st)
	a := Audit{
		Harness: tr.Harness, SessionID: tr.SessionID, Transcript: path, Cwd: tr.Cwd, Model: tr.Model, Window: window,
		Turns: len(tr.Turns), Rows: len(st.Rows), Warnings: tr.Warnings,
		Findings: findingsOf(st, detect.Run(sess)), Repeated: repeatsOf(st, detect.Repeats(sess)),
		Largest: largest(st.Rows), TurnUsage: tr.Turns, st: st,
		Forecast: Forecast{Tokens: st.Usage.Tokens, TokensToCompaction: state.TokensToCompaction(st), TurnsToCompaction: state.TurnsToCompaction(st)},
	}
	for _, t := range tr.Turns {
		a.Calls += t.Calls
	}
	if o.Judge {
		// The judge weighs the session as it was, not the detectors' findings: what it confirms, it
		// found on its own.
		j, err := runJudgeFork(ctx, o.JudgeTimeout, tr, st, tab, func(w string) { a.Warnings = append(a.Warnings, w) })
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

// Replay plays the transcript through the reducer the way session.start adopts one, turn by turn: the
// turn starts, its rows (rebuilt by state.AdoptRows, with the durations the transcript's timestamps give)
// are adopted, the turn completes with its usage and the window is sampled. The session's model is
// priced from tab, as the daemon prices a live one, so what a judge run costs reads in dollars.
func Replay(tr agentlog.Transcript, window int64, tab *prices.Table) *state.State {
	st := state.New(tr.Cwd, window)
	if tr.Model != "" {
		state.Reduce(st, session.PriceOf(session.TablePrices{Table: tab}, tr.Model, lastTurnEnd(tr)))
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
