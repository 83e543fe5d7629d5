package impact

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"
)

// Record is one linked or pending session×repo.
type Record struct {
	SessionID string `json:"session_id"`
	Harness   string `json:"harness"`
	RepoLabel string `json:"repo_label"`
	// Link is "trailer" (an agent trailer names the harness) or "window"
	// (a local author's commit in the session's time window).
	Link string `json:"link"`
	// LinkP is 1.0 for a trailer link, OUTSIDE_P for one won by a session
	// started outside the repo, the decided probability for a window link,
	// and null while a window link waits for its decision (pending).
	LinkP *float64 `json:"link_p"`
	// Subject is the L-subject of the session's commits: the commit_link
	// decision subject. Only window links are decided; on trailer records
	// it just names the commit set.
	Subject         string   `json:"subject"`
	Commits         []string `json:"commits"` // full shas, oldest first
	Added           int      `json:"added"`
	Deleted         int      `json:"deleted"`
	CommitsKept     int      `json:"commits_kept"`
	CommitsReverted int      `json:"commits_reverted"`
	// Cost is the session's cost (cost.total and the judge spend saverd's
	// forks added to it) times this record's share of the session's commits
	// (L-split), rounded to 6 decimals. A pending record shows the cost it
	// would carry once linked.
	Cost float64 `json:"cost"`
	// JudgeCost is the part of Cost saverd's own forks spent (judge.cost's
	// share), so a reader can tell it apart and match it to `saverd sessions`.
	JudgeCost float64 `json:"judge_cost"`
	// Details holds what L-scan keeps per commit, in the order of Commits.
	Details []CommitInfo `json:"commit_details"`

	session *sess
	repo    *repoState
	// linesRevertedAdded is the added lines of reverted commits (L-cost).
	linesRevertedAdded int
	// cost is Cost before rounding; the summary sums these.
	cost float64
}

// CommitInfo is one commit of a record as L-scan keeps it. The author email
// appears only as sha256(email)[:12]; the message not at all.
type CommitInfo struct {
	SHA          string `json:"sha"`
	TS           string `json:"ts"` // author date, RFC 3339 UTC
	Author       string `json:"author"`
	Files        int    `json:"files"`
	Added        int    `json:"added"`
	Deleted      int    `json:"deleted"`
	AgentTrailer string `json:"agent_trailer,omitempty"`
	// Reachable tells whether the commit is on the default branch. It does
	// not change linking or the summary (L-scan keeps it per commit and no
	// rule uses it); it tells a reader which work landed.
	Reachable  bool   `json:"reachable"`
	RevertOf   string `json:"revert_of,omitempty"`   // the sha (prefix) this commit reverts
	RevertedBy string `json:"reverted_by,omitempty"` // the commit that reverts this one
}

// subjectOf is L-subject: <session_id>:<sha256(",".join(sorted(shas)))[:8]>.
// A changed commit set yields a new subject, so stale answers never apply.
func subjectOf(sessionID string, shas []string) string {
	sorted := append([]string(nil), shas...)
	sort.Strings(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, ",")))
	return sessionID + ":" + hex.EncodeToString(sum[:])[:8]
}

// allReverts is every scanned repo's reverts in one index: L-revert counts a revert made in any of
// them (the session worked in a clone, the revert landed in the original). The first repo to name a
// prefix keeps it, as within a repo the first commit read does.
func allReverts(repos []*repoState) *repoLog {
	all := &repoLog{reverts: map[string]string{}}
	for _, r := range repos {
		if r.log == nil {
			continue
		}
		for prefix, by := range r.log.reverts {
			if _, ok := all.reverts[prefix]; !ok {
				all.reverts[prefix] = by
			}
		}
	}
	all.indexReverts()
	return all
}

// markReverts is L-revert: X is reverted when a scanned commit (in log, every repo's reverts) names a
// prefix of X's sha.
func markReverts(d *draft, log *repoLog) {
	for _, c := range d.commits {
		for _, n := range log.revertLens {
			if n > len(c.sha) {
				break
			}
			if by, ok := log.reverts[c.sha[:n]]; ok && by != c.sha {
				c.revertedBy = by
				break
			}
		}
	}
}

// newRecord sums a draft (L-revert): revert commits are neither kept nor
// reverted and add no lines.
func newRecord(d *draft) Record {
	sort.Slice(d.commits, func(i, j int) bool {
		a, b := d.commits[i], d.commits[j]
		if !a.ts.Equal(b.ts) {
			return a.ts.Before(b.ts)
		}
		return a.sha < b.sha
	})
	r := Record{
		SessionID: d.s.ID,
		Harness:   d.s.Harness,
		RepoLabel: d.repo.label,
		Link:      string(d.kind),
		Commits:   make([]string, 0, len(d.commits)),
		Details:   make([]CommitInfo, 0, len(d.commits)),
		session:   d.s,
		repo:      d.repo,
	}
	switch {
	case d.kind == linkTrailer && d.outside:
		r.LinkP = new(OutsideP)
	case d.kind == linkTrailer:
		r.LinkP = new(1.0)
	}
	for _, c := range d.commits {
		r.Commits = append(r.Commits, c.sha)
		r.Details = append(r.Details, commitInfo(c))
		if c.isRevert() {
			continue
		}
		r.Added += c.added
		r.Deleted += c.deleted
		if c.revertedBy != "" {
			r.CommitsReverted++
			r.linesRevertedAdded += c.added
		} else {
			r.CommitsKept++
		}
	}
	return r
}

func commitInfo(c *commit) CommitInfo {
	return CommitInfo{
		SHA:          c.sha,
		TS:           c.ts.Format(time.RFC3339),
		Author:       c.author,
		Files:        c.files,
		Added:        c.added,
		Deleted:      c.deleted,
		AgentTrailer: c.agent,
		Reachable:    c.reachable,
		RevertOf:     c.revertOf,
		RevertedBy:   c.revertedBy,
	}
}

// buildRecords turns drafts into records: reverts, subjects, decisions
// (L-decided) and cost shares (L-split). Records dropped by a decision
// below MIN_P are left out.
func buildRecords(drafts []*draft, reverts *repoLog, decided map[string]float64) []Record {
	bySession := make(map[string][]string) // session id → all its shas
	for _, d := range drafts {
		markReverts(d, reverts)
		for _, c := range d.commits {
			bySession[d.s.ID] = append(bySession[d.s.ID], c.sha)
		}
	}
	var out []Record
	for _, d := range drafts {
		r := newRecord(d)
		r.Subject = subjectOf(d.s.ID, bySession[d.s.ID])
		if d.kind == linkWindow {
			if p, ok := decided[r.Subject]; ok {
				if p < MinP {
					continue
				}
				r.LinkP = new(p)
			}
		}
		out = append(out, r)
	}
	splitCost(out)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.session.Start.Equal(b.session.Start) {
			return a.session.Start.Before(b.session.Start)
		}
		if a.SessionID != b.SessionID {
			return a.SessionID < b.SessionID
		}
		return a.repo.index < b.repo.index
	})
	return out
}

// splitCost is L-split: a session's cost is shared by its records in
// proportion to their commits, so no session's cost counts twice. A session's
// records are all of one kind and, for window links, share one decision, so
// sharing over the surviving records equals sharing over the linked ones.
func splitCost(recs []Record) {
	total := make(map[string]int)
	for _, r := range recs {
		total[r.SessionID] += len(r.Commits)
	}
	for i := range recs {
		r := &recs[i]
		if n := total[r.SessionID]; n > 0 {
			share := float64(len(r.Commits)) / float64(n)
			r.cost = r.session.Cost * share
			r.JudgeCost = round6(r.session.JudgeCost * share)
		}
		r.Cost = round6(r.cost)
	}
}
