// Package report sums agent session records into what a person asks of their spend: totals, days,
// weeks, months, models, projects and harnesses (Group), the 5-hour windows a Claude or ChatGPT
// subscription counts (Blocks), and one self-contained HTML page with charts of it all (Write). It
// writes `saverd sessions` (a table, JSON, NDJSON or CSV: Sessions) and `saverd blocks` (BlocksReport),
// and gathers the page's input (Gather: the daemon's sessions log, impact over the same sessions). It
// takes the records agentlog reads and reads no clock of its own.
package report

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// Group is a sum over sessions (or calls): the totals, or one day, week, month, model, project or
// harness. Its JSON names are the same whatever the grouping, so one query reads them all.
type Group struct {
	Key      string          `json:"key,omitempty"`
	Sessions int             `json:"sessions"`
	Calls    int             `json:"calls"`
	Tokens   agentlog.Tokens `json:"tokens"`
	// Cost is null when some call in the group has no price; Priced sums the calls that have one, and
	// UnpricedTokens counts the tokens of the others: what Priced leaves out.
	Cost           *float64 `json:"cost"`
	Priced         float64  `json:"priced"`
	Unpriced       []string `json:"unpriced_models,omitempty"`
	UnpricedTokens int64    `json:"unpriced_tokens"`
}

// Add counts one session's (or one model's share of it) calls, tokens and cost: cost is what the priced
// calls came to, unpriced the models with no price and unpricedTokens their tokens.
func (g *Group) Add(calls int, tok agentlog.Tokens, cost float64, unpriced []string, unpricedTokens int64) {
	g.Sessions++
	g.Calls += calls
	g.Tokens.Add(tok)
	g.Priced += cost
	g.UnpricedTokens += unpricedTokens
	for _, m := range unpriced {
		if !slices.Contains(g.Unpriced, m) {
			g.Unpriced = append(g.Unpriced, m)
		}
	}
}

// AddRecord counts a whole session.
func (g *Group) AddRecord(r *agentlog.Record) {
	g.Add(r.Calls, r.Tokens, r.Cost.Priced, r.Cost.Unpriced, r.Cost.UnpricedTokens)
}

// Finish rounds the sum (nine decimals, as the records are) and sets Cost: null when a model had no
// price.
func (g *Group) Finish() {
	g.Priced = round9(g.Priced)
	sort.Strings(g.Unpriced)
	g.Cost = nil
	if len(g.Unpriced) == 0 {
		v := g.Priced
		g.Cost = &v
	}
}

func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// Totals sums every record.
func Totals(recs []agentlog.Record) Group {
	var g Group
	for i := range recs {
		g.AddRecord(&recs[i])
	}
	g.Finish()
	return g
}

// Groupings says which keys By takes.
var Groupings = []string{"day", "week", "month", "model", "project", "harness"}

// By sums the records by one of Groupings, sorted by key. A day, week or month is the session's start in
// loc (a session counts whole in the period it started in, as --since and --until keep whole
// sessions); a model splits each session into its models' shares; a session with no project is "-".
func By(recs []agentlog.Record, by string, loc *time.Location) []Group {
	at := make(map[string]*Group)
	get := func(k string) *Group {
		g := at[k]
		if g == nil {
			g = &Group{Key: k}
			at[k] = g
		}
		return g
	}
	for i := range recs {
		r := &recs[i]
		switch by {
		case "model":
			for name, m := range r.Models {
				if m.Cost == nil {
					get(name).Add(m.Calls, m.Tokens, 0, []string{name}, m.Tokens.Total())
					continue
				}
				get(name).Add(m.Calls, m.Tokens, *m.Cost, nil, 0)
			}
		case "project":
			k := "-"
			if r.Project != nil {
				k = *r.Project
			}
			get(k).AddRecord(r)
		case "harness":
			get(r.Harness).AddRecord(r)
		default:
			get(PeriodKey(r.Start, by, loc)).AddRecord(r)
		}
	}
	out := make([]Group, 0, len(at))
	for _, g := range at {
		g.Finish()
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// PeriodKey names the day, week or month t falls in, in loc: 2026-12-01; a week by its Monday's date
// (ISO 8601 weeks start on Monday), 2026-11-30; a month 2026-12. Each sorts as text in time order.
func PeriodKey(t time.Time, by string, loc *time.Location) string {
	t = t.In(loc)
	switch by {
	case "week":
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return t.AddDate(0, 0, -back).Format(time.DateOnly)
	case "month":
		return t.Format("2006-01")
	}
	return t.Format(time.DateOnly)
}
