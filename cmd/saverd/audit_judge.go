package main

import (
	"context"
	"fmt"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
)

// auditJudge is what `saverd audit --judge` reports of the habit judge's run.
type auditJudge struct {
	Returned int             `json:"returned"`
	Kept     int             `json:"kept"`
	Dropped  []string        `json:"dropped"`
	Usage    judge.ForkUsage `json:"usage"`
	CostUSD  *float64        `json:"costUsd"` // the client's own figure, when it reports one
	Cards    []view.Card     `json:"cards"`

	found []state.Finding // the findings it kept, for the audit to set beside the detectors'
}

// runJudgeFork runs the habit judge over the replayed session through the fork command (claude -p
// --resume <session> --fork-session, or the configured one), and applies its reply as the daemon does: the
// findings validated against the rows, merged into the registry, the run recorded.
func runJudgeFork(ctx context.Context, timeout time.Duration, tr agentlog.Transcript, st *state.State) (*auditJudge, error) {
	cfg, err := forkcmd.Load()
	if err != nil {
		return nil, err
	}
	aliases := judge.Aliases(st)
	prompt := judge.BuildPrompt(st, aliases)
	state.Reduce(st, state.JudgeStart{Kind: state.HabitJudge, Seq: st.Seq})
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := forkcmd.Run(ctx, cfg, forkcmd.Request{Harness: tr.Harness, SessionID: tr.SessionID,
		Cwd: tr.Cwd, Model: tr.Model, Purpose: "judge", Prompt: prompt})
	if err != nil {
		// The run ended without an answer: the pane says it failed, not that it is still checking.
		state.Reduce(st, state.JudgeDone{Kind: state.HabitJudge, Patterns: st.Patterns, Error: new(err.Error()), Dropped: []string{}})
		return nil, fmt.Errorf("judge: %w", err)
	}
	reply := judge.ParseReply(res.Text, st, aliases)
	merged := judge.Merge(st, reply.Findings)
	dropped := append([]string{}, reply.Dropped...)
	for _, id := range merged.Evicted {
		dropped = append(dropped, id+": evicted, the registry is full")
	}
	usage := judge.UsageOf(res.Usage)
	kept := len(reply.Findings) - len(merged.Evicted)
	state.Reduce(st, state.JudgeDone{Kind: state.HabitJudge, Patterns: merged.Patterns, Fresh: merged.Fresh, Recurred: merged.Recurred,
		Focus: reply.Focus, Time: reply.Time, Context: reply.Context, Spent: judge.SpentOf(usage),
		Returned: reply.Returned, Kept: kept, Dropped: dropped, Usage: &usage})
	return &auditJudge{Returned: reply.Returned, Kept: kept, Dropped: dropped, Usage: res.Usage, CostUSD: res.CostUSD,
		Cards: view.BuildPane(st, nil).Wasters, found: reply.Findings}, nil
}
