package impact

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// Options are the inputs of one impact analysis.
type Options struct {
	// Found are session records the caller read itself from the agents' own
	// logs, one JSON object each in the sessions JSONL schema; they are read
	// before Sessions.
	Found     []json.RawMessage
	Sessions  []string  // sessions JSONL files
	Repos     []string  // impact.repos; empty → the distinct session repos
	Decisions string    // decisions.jsonl; "" → no decisions
	Days      int       // 0 → DefaultDays
	Now       time.Time // zero → time.Now()
	Git       string    // git binary; "" → "git"
	Progress  io.Writer // scan progress for a terminal; nil → none
}

// Report is the result of Query.
type Report struct {
	Records  []Record `json:"records"`
	Summary  Summary  `json:"summary"`
	Warnings []string `json:"warnings"`

	pending []PendingSubject
}

func (o Options) withDefaults() (Options, error) {
	if o.Days < 0 {
		return o, fmt.Errorf("impact: days must not be negative, got %d", o.Days)
	}
	// 0 is the default (an Options left unset); a caller asking for a window says how many days.
	if o.Days == 0 {
		o.Days = DefaultDays
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Git == "" {
		o.Git = "git"
	}
	return o, nil
}

// Query runs the analysis: read the sessions, scan each repository, link,
// apply decisions and summarise. Problems with single inputs are warnings in
// the report; only a missing git binary, bad options or a cancelled ctx
// make it fail.
func Query(ctx context.Context, opt Options) (*Report, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	bin, err := exec.LookPath(opt.Git)
	if err != nil {
		return nil, fmt.Errorf("impact: git binary %q: %w", opt.Git, err)
	}
	// git runs in each repo's directory: a path found relative to ours would name nothing there.
	if bin, err = filepath.Abs(bin); err != nil {
		return nil, fmt.Errorf("impact: git binary %q: %w", opt.Git, err)
	}
	read, warn := readSessions(opt.Found, opt.Sessions)
	if len(read) == 0 {
		if err := noSessionsReadable(opt.Sessions); err != nil {
			return nil, err
		}
	}
	sessions := withinDays(read, opt.Now, opt.Days)
	if len(read) > 0 && len(sessions) == 0 {
		// Said, because an empty report reads like "no agent work" when the sessions were only older.
		warn = append(warn, fmt.Sprintf("none of the %d sessions read ended within the %d days before %s (see --days and --now)",
			len(read), opt.Days, opt.Now.UTC().Format(time.RFC3339)))
	}
	repos, w := resolveRepos(opt.Repos, sessions)
	warn = append(warn, w...)
	assignMembers(repos, sessions, len(opt.Repos) > 0)

	w, err = scanRepos(ctx, git{bin: bin}, repos, opt)
	if err != nil {
		return nil, err
	}
	warn = append(warn, w...)
	decided, w := readDecisions(opt.Decisions)
	warn = append(warn, w...)

	lk := newLinker(repos)
	recs := buildRecords(lk.link(), allReverts(repos), decided)
	warn = append(warn, lk.orphanWarnings()...)
	if recs == nil {
		recs = []Record{}
	}
	if warn == nil {
		warn = []string{}
	}
	return &Report{
		Records:  recs,
		Summary:  summarize(sessions, recs),
		Warnings: warn,
		pending:  pendingSubjects(recs),
	}, nil
}

// withinDays keeps the sessions whose end lies in [now − days, now]. A
// session ending after now did not exist yet at now (--now replays the past).
func withinDays(all []session, now time.Time, days int) []*sess {
	from := now.Add(-time.Duration(days) * 24 * time.Hour)
	cache := make(map[string]string)
	resolve := func(p string) string {
		if r, ok := cache[p]; ok {
			return r
		}
		r, _ := realpath(p) // unresolvable paths keep their absolute form
		cache[p] = r
		return r
	}
	var out []*sess
	for i := range all {
		s := &all[i]
		if s.End.Before(from) || s.End.After(now) {
			continue
		}
		out = append(out, newSess(s, resolve))
	}
	return out
}

// scanRepos scans the repos in parallel. A repo that fails is a warning and
// takes no part in linking; the others are still reported.
func scanRepos(ctx context.Context, g git, repos []*repoState, opt Options) ([]string, error) {
	prog := startProgress(opt.Progress, len(repos), progressDelay, 200*time.Millisecond)
	warns := make([][]string, len(repos))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, r := range repos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			defer prog.repoDone()
			w, err := scanRepo(ctx, g, r, opt.Now, prog)
			if err != nil {
				r.log = nil
				w = append(w, fmt.Sprintf("repo %s: %v (skipped)", r.path, err))
			}
			warns[i] = w
		}()
	}
	wg.Wait()
	prog.finish()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("impact: %w", err)
	}
	var out []string
	for _, w := range warns {
		out = append(out, w...)
	}
	return out, nil
}

// scanRepo is L-scan for one repository. The returned warnings are
// problems that leave the scan usable.
func scanRepo(ctx context.Context, g git, r *repoState, now time.Time, prog *progress) ([]string, error) {
	branch, err := defaultBranch(ctx, g, r.path)
	if err != nil {
		return nil, err
	}
	r.log = &repoLog{reverts: map[string]string{}}
	if len(r.sessions) == 0 {
		return nil, nil // no session can link here: nothing to read
	}
	local, err := localEmails(ctx, g, r.path)
	if err != nil {
		return nil, err
	}
	win := windowsOf(r.sessions)
	p := scanParams{from: win.earliest(), now: now, local: local, linkable: win.holds, count: prog.commit}
	log, unreached, reachErr, err := logAndReach(ctx, g, r.path, branch, p)
	if err != nil {
		return nil, err
	}
	r.log = log
	if reachErr != nil && len(log.commits) > 0 { // an unborn HEAD fails, but then nothing needs it
		return []string{fmt.Sprintf("repo %s: reachability from %s unknown: %v", r.path, branch, reachErr)}, nil
	}
	markReachable(log.commits, unreached)
	return nil, nil
}

// logAndReach runs the log and the reachability rev-list side by side, so
// the rev-list adds no wall time. A failed log stops both.
func logAndReach(ctx context.Context, g git, dir, branch string, p scanParams) (log *repoLog, unreached map[shaKey]struct{}, reachErr, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		unreached, reachErr = unreachable(ctx, g, dir, branch, p.from)
	}()
	log, err = scanLog(ctx, g, dir, p)
	if err != nil {
		cancel()
	}
	<-done
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // cancelled while the rev-list ran
	}
	return log, unreached, reachErr, err
}
