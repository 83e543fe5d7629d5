package handlers

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// impactQuery links commits to agent sessions and reports what each kept commit cost. Both impact
// methods are answered off the read loop (rpc.Later): a history of 100,000 commits took 3.2 s, and every
// session's hooks waited behind it.
func (s *Server) impactQuery(_ context.Context, raw json.RawMessage) (any, error) {
	q, err := s.impact(raw)
	if err != nil {
		return nil, err
	}
	return rpc.Later(func(ctx context.Context) (any, error) {
		rep, err := q.Report(ctx)
		if err != nil {
			return nil, wireError(err)
		}
		return rep, nil
	}), nil
}

// impactPending lists the subjects that wait for a commit_link decision.
func (s *Server) impactPending(_ context.Context, raw json.RawMessage) (any, error) {
	q, err := s.impact(raw)
	if err != nil {
		return nil, err
	}
	return rpc.Later(func(ctx context.Context) (any, error) {
		res, err := q.Pending(ctx)
		if err != nil {
			return nil, wireError(err)
		}
		return res, nil
	}), nil
}

// impact decodes an impact method's params and checks them (session.Table.Impact).
func (s *Server) impact(raw json.RawMessage) (session.ImpactQuery, error) {
	p, err := decode[session.ImpactParams](raw)
	if err != nil {
		return session.ImpactQuery{}, err
	}
	return s.tbl.Impact(p)
}
