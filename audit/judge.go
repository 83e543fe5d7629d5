package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
)

// Judge is what `saverd audit --judge` reports of the habit judge's run.
type Judge struct {
	Returned int             `json:"returned"`
	Kept     int             `json:"kept"`
	Dropped  []string        `json:"dropped"`
	Usage    judge.ForkUsage `json:"usage"`
	Model    string          `json:"model"`   // the model the fork ran on, which prices it
	CostUSD  *float64        `json:"costUsd"` // Usage at Model's price; null when the model has no price
	Cards    []view.Card     `json:"cards"`

	found []state.Finding // the findings it kept, for the audit to set beside the detectors'
}

// runJudgeFork runs the habit judge over the replayed session through the fork command (claude -p
// --resume=<session> --fork-session, or the configured one), and applies its reply as the daemon does:
// the findings validated against the rows, merged into the registry, the run recorded and priced from
// the fork's own usage at the price of the model it ran on (never the client's cumulative figure). The
// fork goes into the forks log, so it is never a session of its own; a fork that failed after it spent
// is billed and logged all the same. warn gets what could not be recorded.
func runJudgeFork(ctx context.Context, timeout time.Duration, tr agentlog.Transcript, st *state.State, tab *prices.Table, warn func(string)) (*Judge, error) {
	cfg, err := forkcmd.Load()
	if err != nil {
		return nil, err
	}
	client := all.Fork(harness.ID(tr.Harness))
	req := forkcmd.Request{Harness: tr.Harness, SessionID: tr.SessionID, Cwd: tr.Cwd, Model: tr.Model, Purpose: "judge"}
	if err := forkcmd.Available(cfg, client, req); errors.Is(err, forkcmd.ErrNoFork) {
		return nil, fmt.Errorf("judge: %s: %w", tr.Harness, err) // a harness with no client of its own to fork
	}
	aliases := judge.Aliases(st)
	req.Prompt = judge.BuildPrompt(st, aliases)
	state.Reduce(st, state.JudgeStart{Kind: state.HabitJudge, Seq: st.Seq})
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := forkcmd.Run(ctx, cfg, client, req)
	if res.Model == "" {
		res.Model = tr.Model
	}
	if res.Spent() {
		if rerr := forkcmd.Record(tr.SessionID, tr.Harness, "judge", res); rerr != nil {
			warn(rerr.Error())
		}
	}
	usage := judge.UsageOf(res.Usage)
	cost := forkCost(tab, res.Model, usage)
	if err != nil {
		// The run ended without an answer: the pane says it failed, not that it is still checking, and
		// what the fork spent is spent.
		state.Reduce(st, state.JudgeDone{Kind: state.HabitJudge, Patterns: st.Patterns, Error: new(err.Error()), Dropped: []string{},
			Spent: judge.SpentOf(usage), Usage: &usage, CostUSD: cost})
		return nil, fmt.Errorf("judge: %w", err)
	}
	reply := judge.ParseReply(res.Text, st, aliases)
	merged := judge.Merge(st, reply.Findings)
	dropped := append([]string{}, reply.Dropped...)
	for _, id := range merged.Evicted {
		dropped = append(dropped, id+": evicted, the registry is full")
	}
	kept := len(reply.Findings) - len(merged.Evicted)
	state.Reduce(st, state.JudgeDone{Kind: state.HabitJudge, Patterns: merged.Patterns, Fresh: merged.Fresh, Recurred: merged.Recurred,
		Focus: reply.Focus, Time: reply.Time, Context: reply.Context, Spent: judge.SpentOf(usage),
		Returned: reply.Returned, Kept: kept, Dropped: dropped, Usage: &usage, CostUSD: cost})
	return &Judge{Returned: reply.Returned, Kept: kept, Dropped: dropped, Usage: res.Usage, Model: res.Model, CostUSD: cost,
		Cards: view.BuildPane(st, nil).Wasters, found: reply.Findings}, nil
}

// forkCost is a fork's usage at model's price now (the fork just ran), its cache creation as 5-minute
// writes, as the daemon prices its own forks (session.TablePrices); nil when the model has no price.
func forkCost(tab *prices.Table, model string, u state.JudgeUsage) *float64 {
	if model == "" {
		return nil
	}
	usd, ok := session.TablePrices{Table: tab}.Cost(model, time.Now(), u)
	if !ok {
		return nil
	}
	return &usd
}
