package impact

import (
	"fmt"
	"time"
)

// linkKind is how a record's commits reached its session.
type linkKind string

const (
	linkTrailer linkKind = "trailer" // L-trailer: an agent trailer names the harness
	linkWindow  linkKind = "window"  // L-candidate: a local commit in the window, pending a decision
)

// draft is a record being built: one session in one repo.
type draft struct {
	s       *sess
	repo    *repoState
	kind    linkKind
	outside bool
	commits []*commit
}

// draftKey identifies a draft: a session in a repo.
type draftKey struct {
	session string
	repo    int
}

// occurrence is one repo's copy of a commit. The same sha can be in several
// repos (clones, worktrees, nested checkouts); it is linked once.
type occurrence struct {
	repo *repoState
	c    *commit
}

// linker assigns commits to sessions (L-trailer, L-candidate, L-assign).
type linker struct {
	order  []string                // shas in first-seen order, for determinism
	bySHA  map[string][]occurrence // every repo's copy of each sha
	drafts map[draftKey]*draft
	keys   []draftKey // drafts in creation order
	// orphans are trailer commits no session of the named harness holds.
	orphans []occurrence
}

func newLinker(repos []*repoState) *linker {
	n := 0
	for _, r := range repos {
		if r.log != nil {
			n += len(r.log.commits)
		}
	}
	l := &linker{bySHA: make(map[string][]occurrence, n), order: make([]string, 0, n), drafts: make(map[draftKey]*draft)}
	for _, r := range repos {
		if r.log == nil {
			continue
		}
		for _, c := range r.log.commits {
			if _, seen := l.bySHA[c.sha]; !seen {
				l.order = append(l.order, c.sha)
			}
			l.bySHA[c.sha] = append(l.bySHA[c.sha], occurrence{repo: r, c: c})
		}
	}
	// A trailer commit no window of its repo holds is an orphan from the start, said once per sha
	// (a commit can be in two scanned repos); if another repo's window holds it, it links there.
	said := make(map[string]bool)
	for _, r := range repos {
		if r.log == nil {
			continue
		}
		for _, c := range r.log.unheld {
			if _, held := l.bySHA[c.sha]; !held && !said[c.sha] {
				said[c.sha] = true
				l.orphans = append(l.orphans, occurrence{repo: r, c: c})
			}
		}
	}
	return l
}

// link runs both passes. Trailer links go first because a session with a
// trailer link takes no window candidates (L-candidate), in any repo.
func (l *linker) link() []*draft {
	for _, sha := range l.order {
		if occ := l.bySHA[sha]; occ[0].c.agent != "" {
			l.assign(occ, linkTrailer)
		}
	}
	for _, sha := range l.order {
		if occ := l.bySHA[sha]; occ[0].c.agent == "" {
			l.assign(occ, linkWindow)
		}
	}
	out := make([]*draft, len(l.keys))
	for i, k := range l.keys {
		out[i] = l.drafts[k]
	}
	return out
}

// assign gives one commit to the best eligible session, if any. A sha is
// handled once, so a commit is never counted twice.
func (l *linker) assign(occ []occurrence, kind linkKind) {
	var (
		best   *member
		bestAt occurrence
	)
	for _, o := range occ {
		for i := range o.repo.sessions {
			m := &o.repo.sessions[i]
			if !eligible(m, o.c, kind) {
				continue
			}
			if best == nil || before(m, best, o.c.ts) {
				best, bestAt = m, o
			}
		}
	}
	if best == nil {
		if kind == linkTrailer {
			l.orphans = append(l.orphans, occ[0])
		}
		return
	}
	k := draftKey{session: best.s.ID, repo: bestAt.repo.index}
	d := l.drafts[k]
	if d == nil {
		d = &draft{s: best.s, repo: bestAt.repo, kind: kind, outside: best.outside}
		l.drafts[k] = d
		l.keys = append(l.keys, k)
	}
	d.commits = append(d.commits, bestAt.c)
	if kind == linkTrailer {
		best.s.trailer = true
	}
}

// eligible says whether m may receive c in this pass.
//
// L-trailer: a session of the trailer's harness, member or outside.
// L-candidate: a local author's commit, a member session (never outside) of
// any harness that has no trailer link.
// Both: the session's window holds the author time (L-window).
func eligible(m *member, c *commit, kind linkKind) bool {
	if !m.s.holds(c.ts) {
		return false
	}
	if kind == linkTrailer {
		return m.s.Harness == c.agent
	}
	return c.local && !m.outside && !m.s.trailer
}

// before is L-assign's order: true when a comes before b for a commit at ts.
// The tie-breakers, in order: ≥ MIN_CALLS calls; used a write tool; nearer
// in time; more calls; later start; smaller session id. Between two roles of
// one session (member of one repo, outside of another) the member wins,
// since its link is the surer one.
func before(a, b *member, ts time.Time) bool {
	x, y := a.s, b.s
	if x.busy != y.busy {
		return x.busy
	}
	if x.writes != y.writes {
		return x.writes
	}
	if dx, dy := x.distance(ts), y.distance(ts); dx != dy {
		return dx < dy
	}
	if x.Calls != y.Calls {
		return x.Calls > y.Calls
	}
	if !x.Start.Equal(y.Start) {
		return x.Start.After(y.Start)
	}
	if x.ID != y.ID {
		return x.ID < y.ID
	}
	return !a.outside && b.outside
}

// orphanWarnings say which trailer commits stayed unlinked: the trailer
// names a harness, but no session of that harness has the commit in its
// window (its log was not read, or the records name the harness otherwise).
func (l *linker) orphanWarnings() []string {
	var out []string
	for i, o := range l.orphans {
		if i == maxOrphanWarnings {
			out = append(out, fmt.Sprintf("%d more trailer commits no session's window holds: unlinked (their sessions' logs were not read, or are older than --days)",
				len(l.orphans)-maxOrphanWarnings))
			break
		}
		out = append(out, fmt.Sprintf("repo %s: commit %s (%s) carries a %s trailer, but no %s session's window holds it: unlinked",
			o.repo.label, short(o.c.sha), o.c.ts.UTC().Format(time.RFC3339), o.c.agent, o.c.agent))
	}
	return out
}

// maxOrphanWarnings is how many unlinked trailer commits are named one by one: a repo whose agent
// logs were deleted can hold hundreds.
const maxOrphanWarnings = 10
