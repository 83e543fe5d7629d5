package impact

import (
	"math"
	"time"
)

// Summary is L-cost over the linked records (link_p not null).
type Summary struct {
	// SessionsTotal counts the sessions whose end lies within --days.
	SessionsTotal int `json:"sessions_total"`
	// Linked counts the sessions with at least one linked record.
	Linked int `json:"linked"`
	// Pending counts the sessions whose window link waits for a decision.
	Pending   int               `json:"pending"`
	ByRepo    map[string]*Group `json:"by_repo"`
	ByHarness map[string]*Group `json:"by_harness"`
	// UnlinkedCost is the cost of the sessions not linked, pending ones
	// included.
	UnlinkedCost float64 `json:"unlinked_cost"`
}

// Group is the summary of one repo_label or one harness. Each ratio is null
// when its denominator is 0.
type Group struct {
	Cost              float64  `json:"cost"`
	LinesAdded        int      `json:"lines_added"`
	CommitsKept       int      `json:"commits_kept"`
	CommitsReverted   int      `json:"commits_reverted"`
	CostPerKeptCommit *float64 `json:"cost_per_kept_commit"`
	CostPer100Lines   *float64 `json:"cost_per_100_lines"`
	RevertRate        *float64 `json:"revert_rate"`

	cost float64 // unrounded sum of record costs
}

// summarize computes L-cost. sessions are the sessions within --days.
func summarize(sessions []*sess, recs []Record) Summary {
	sum := Summary{
		SessionsTotal: len(sessions),
		ByRepo:        make(map[string]*Group),
		ByHarness:     make(map[string]*Group),
	}
	linked := make(map[string]bool)
	pending := make(map[string]bool)
	for i := range recs {
		r := &recs[i]
		if r.LinkP == nil {
			pending[r.SessionID] = true
			continue
		}
		linked[r.SessionID] = true
		group(sum.ByRepo, r.RepoLabel).add(r)
		group(sum.ByHarness, r.Harness).add(r)
	}
	var unlinked float64
	for _, s := range sessions {
		if !linked[s.ID] {
			unlinked += s.Cost
		}
	}
	sum.Linked = len(linked)
	sum.Pending = len(pending)
	sum.UnlinkedCost = round6(unlinked)
	for _, g := range sum.ByRepo {
		g.finish()
	}
	for _, g := range sum.ByHarness {
		g.finish()
	}
	return sum
}

func group(m map[string]*Group, key string) *Group {
	g := m[key]
	if g == nil {
		g = &Group{}
		m[key] = g
	}
	return g
}

// add counts a linked record. Lines of reverted commits do not count:
// lines_added = Σ max(0, added − added of the record's reverted commits).
func (g *Group) add(r *Record) {
	g.cost += r.cost
	g.LinesAdded += max(0, r.Added-r.linesRevertedAdded)
	g.CommitsKept += r.CommitsKept
	g.CommitsReverted += r.CommitsReverted
}

func (g *Group) finish() {
	g.Cost = round6(g.cost)
	g.CostPerKeptCommit = ratio(g.cost, float64(g.CommitsKept))
	g.CostPer100Lines = ratio(100*g.cost, float64(g.LinesAdded))
	g.RevertRate = ratio(float64(g.CommitsReverted), float64(g.CommitsKept+g.CommitsReverted))
}

// ratio is num/den rounded to 6 decimals, nil when den is 0.
func ratio(num, den float64) *float64 {
	if den == 0 {
		return nil
	}
	return new(round6(num / den))
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// GroupBy sums the linked records (link_p not null) by key, as L-cost sums by_repo and by_harness: a
// report that cuts the summary finer (a repository's weeks) gets the same figures from the same sums.
func GroupBy(recs []Record, key func(*Record) string) map[string]*Group {
	out := make(map[string]*Group)
	for i := range recs {
		r := &recs[i]
		if r.LinkP != nil {
			group(out, key(r)).add(r)
		}
	}
	for _, g := range out {
		g.finish()
	}
	return out
}

// SessionStart is the start of the record's session; zero for a record not made by Query.
func (r *Record) SessionStart() time.Time {
	if r.session == nil || r.session.session == nil {
		return time.Time{}
	}
	return r.session.Start
}
