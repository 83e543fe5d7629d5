package handlers

import (
	"context"
	"encoding/json"
	"time"

	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/rpc"
)

// impactOptions turns the method's params into the impact package's options, the same inputs as
// `saverd impact`.
func impactOptions(raw json.RawMessage) (impact.Options, error) {
	p, err := decode[ImpactParams](raw)
	if err != nil {
		return impact.Options{}, err
	}
	if len(p.Sessions) == 0 {
		return impact.Options{}, rpc.InvalidParams("params.sessions: at least one sessions JSONL file is required")
	}
	if p.Days < 0 {
		return impact.Options{}, rpc.InvalidParams("params.days: want ≥ 0, got %d", p.Days)
	}
	opt := impact.Options{Sessions: p.Sessions, Repos: p.Repos, Decisions: p.Decisions, Days: p.Days}
	if p.Now != "" {
		now, err := time.Parse(time.RFC3339, p.Now)
		if err != nil {
			return impact.Options{}, rpc.InvalidParams("params.now: want RFC 3339, got %q", p.Now)
		}
		opt.Now = now
	}
	return opt, nil
}

// impactReport runs the analysis the method's params describe.
func impactReport(ctx context.Context, raw json.RawMessage) (*impact.Report, error) {
	opt, err := impactOptions(raw)
	if err != nil {
		return nil, err
	}
	rep, err := impact.Query(ctx, opt)
	if err != nil {
		return nil, requestFailed("%s", err.Error())
	}
	return rep, nil
}

// impactQuery links commits to agent sessions and reports what each kept commit cost.
// Both impact methods are answered off the read loop (rpc.Later): a history of 100,000 commits took
// 3.2 s, and every session's hooks waited behind it.
func (s *Server) impactQuery(_ context.Context, raw json.RawMessage) (any, error) {
	if _, err := impactOptions(raw); err != nil {
		return nil, err
	}
	return rpc.Later(func(ctx context.Context) (any, error) { return impactReport(ctx, raw) }), nil
}

// impactPending lists the subjects that wait for a commit_link decision.
func (s *Server) impactPending(_ context.Context, raw json.RawMessage) (any, error) {
	if _, err := impactOptions(raw); err != nil {
		return nil, err
	}
	return rpc.Later(func(ctx context.Context) (any, error) {
		rep, err := impactReport(ctx, raw)
		if err != nil {
			return nil, err
		}
		return PendingResult{Pending: rep.PendingSubjects(), Warnings: rep.Warnings}, nil
	}), nil
}

// PendingResult is impact.pending's result: the subjects waiting for a commit_link decision, and what
// could not be read.
type PendingResult struct {
	Pending  []impact.PendingSubject `json:"pending"`
	Warnings []string                `json:"warnings"`
}
