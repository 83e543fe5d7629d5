package session

import (
	"context"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/prices"
)

// ImpactQuery is an impact method's params, checked (Impact): the impact package's options, the same
// inputs as `saverd impact`, and where the agents' logs are when no sessions file is named. Its Report
// and Pending read the history, which can take seconds: the adapter runs them off the read loop.
type ImpactQuery struct {
	tbl *Table
	opt impact.Options
	// dirs are the directories the params name, by harness; none named reads every harness at its defaults.
	dirs map[harness.ID][]string
}

// Impact checks an impact method's params: the query they describe, or the error naming what is wrong.
func (s *Table) Impact(p ImpactParams) (ImpactQuery, error) {
	days := impact.DefaultDays
	if p.Days != nil {
		if days = *p.Days; days < 1 {
			return ImpactQuery{}, invalid("params.days: want ≥ 1, got %d", days)
		}
	}
	r := ImpactQuery{
		tbl:  s,
		opt:  impact.Options{Sessions: p.Sessions, Repos: p.Repos, Decisions: p.Decisions, Days: days},
		dirs: map[harness.ID][]string{harness.ClaudeCode: p.ClaudeDirs, harness.Codex: p.CodexDirs},
	}
	if p.Now != "" {
		now, err := time.Parse(time.RFC3339, p.Now)
		if err != nil {
			return ImpactQuery{}, invalid("params.now: want RFC 3339, got %q", p.Now)
		}
		r.opt.Now = now
	}
	return r, nil
}

// HistoryLogs are the daemon's own logs of a machine's sessions, and where the harness packages' logs are.
type HistoryLogs struct {
	SessionsLog string // one record per ended session (paths.SessionsLog)
	ForksLog    string // the forks the socket daemon ran through a client (paths.ForksLog)
	// Others, when set, lists the logs of the harnesses whose hooks the daemon does not answer (Gemini
	// CLI, OpenCode, Qwen Code) at their default directories, which impact reads when the params name no
	// directory; a test leaves it unset, so that no log of the machine's own is read.
	Others func() ([]agentlog.File, []string)
}

// impactReport runs the analysis the method's params describe. With no sessions file named it reads
// this machine's history first, as `saverd impact` does with no --sessions.
func (s *Table) impactReport(ctx context.Context, r ImpactQuery) (*impact.Report, error) {
	opt := r.opt
	var warn []string
	if len(opt.Sessions) == 0 {
		local := agentlog.Local{Discover: s.impactLogs(r), Prices: s.priceTable(),
			SessionsLog: s.opt.HistoryLogs.SessionsLog, ForksLog: s.opt.HistoryLogs.ForksLog}
		var err error
		if opt.Found, warn, err = agentlog.ReadLocal(ctx, local); err != nil {
			return nil, requestFailed("%s", err.Error())
		}
	}
	rep, err := impact.Query(ctx, opt)
	if err != nil {
		return nil, requestFailed("%s", err.Error())
	}
	if len(warn) > 0 {
		rep.Warnings = append(warn, rep.Warnings...)
	}
	return rep, nil
}

// impactLogs lists the agents' logs impact reads: the directories the params name, of those harnesses
// only; none named, the live harnesses' at their defaults and HistoryLogs.Others, as `saverd impact`
// reads them.
func (s *Table) impactLogs(r ImpactQuery) func() ([]agentlog.File, []string) {
	return func() ([]agentlog.File, []string) {
		named := false
		for _, d := range r.dirs {
			named = named || len(d) > 0
		}
		var (
			files []agentlog.File
			warn  []string
		)
		for _, h := range all.Live() {
			dirs := r.dirs[h.ID()]
			if !named {
				dirs = h.DefaultDirs()
			}
			f, w := h.Discover(dirs)
			files, warn = append(files, f...), append(warn, w...)
		}
		if others := s.opt.HistoryLogs.Others; others != nil && !named {
			f, w := others()
			files, warn = append(files, f...), append(warn, w...)
		}
		return files, warn
	}
}

// priceTable is the table sessions read from the agents' logs are priced at: the daemon's own, when it
// is a table; nil is the embedded one.
func (s *Table) priceTable() *prices.Table {
	if t, ok := s.opt.Prices.(TablePrices); ok {
		return t.Table
	}
	return nil
}

// Report links commits to agent sessions and reports what each kept commit cost (impact.query).
func (q ImpactQuery) Report(ctx context.Context) (*impact.Report, error) {
	return q.tbl.impactReport(ctx, q)
}

// Pending lists the subjects that wait for a commit_link decision (impact.pending).
func (q ImpactQuery) Pending(ctx context.Context) (PendingResult, error) {
	rep, err := q.tbl.impactReport(ctx, q)
	if err != nil {
		return PendingResult{}, err
	}
	return PendingResult{Pending: rep.PendingSubjects(), Warnings: rep.Warnings}, nil
}

// PendingResult is impact.pending's result: the subjects waiting for a commit_link decision, and what
// could not be read.
type PendingResult struct {
	Pending  []impact.PendingSubject `json:"pending"`
	Warnings []string                `json:"warnings"`
}
