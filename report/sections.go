package report

import (
	"sort"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/impact"
)

// impactView is impact's summary per repository, and the same sums cut by the week its sessions started.
type impactView struct {
	Repos        []impactRow
	Weeks        []impactRow
	Chart        chart
	Linked       int
	Pending      int
	UnlinkedCost float64
}

type impactRow struct {
	Repo, Week      string
	Cost            float64
	CommitsKept     int
	CommitsReverted int
	LinesAdded      int
	PerCommit       *float64
	Per100          *float64
}

func rowOf(repo, week string, g *impact.Group) impactRow {
	return impactRow{Repo: repo, Week: week, Cost: g.Cost, CommitsKept: g.CommitsKept, CommitsReverted: g.CommitsReverted,
		LinesAdded: g.LinesAdded, PerCommit: g.CostPerKeptCommit, Per100: g.CostPer100Lines}
}

// weekSep joins a repository and a week in one key; a repo label is a directory's base name, which holds
// no NUL.
const weekSep = "\x00"

func impactSection(rep *impact.Report, loc *time.Location) *impactView {
	v := &impactView{Linked: rep.Summary.Linked, Pending: rep.Summary.Pending, UnlinkedCost: rep.Summary.UnlinkedCost}
	for label, g := range rep.Summary.ByRepo {
		v.Repos = append(v.Repos, rowOf(label, "", g))
	}
	sort.Slice(v.Repos, func(i, j int) bool { return v.Repos[i].Repo < v.Repos[j].Repo })
	weekly := impact.GroupBy(rep.Records, func(r *impact.Record) string {
		return r.RepoLabel + weekSep + PeriodKey(r.SessionStart(), "week", loc)
	})
	weeks := map[string]bool{}
	values := map[string]map[string]float64{}
	for key, g := range weekly {
		repo, week, _ := strings.Cut(key, weekSep)
		v.Weeks = append(v.Weeks, rowOf(repo, week, g))
		weeks[week] = true
		if g.CostPerKeptCommit != nil {
			if values[repo] == nil {
				values[repo] = map[string]float64{}
			}
			values[repo][week] = *g.CostPerKeptCommit
		}
	}
	sort.Slice(v.Weeks, func(i, j int) bool {
		if v.Weeks[i].Repo != v.Weeks[j].Repo {
			return v.Weeks[i].Repo < v.Weeks[j].Repo
		}
		return v.Weeks[i].Week < v.Weeks[j].Week
	})
	keys := sortedSet(weeks)
	repos := make([]string, 0, len(values))
	for r := range values {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	v.Chart = lineChart(keys, repos, func(s, k string) (float64, bool) {
		x, ok := values[s][k]
		return x, ok
	}, inDollars)
	return v
}

// habitView is what the daemon's records say saverd found and fixed, per habit across sessions.
type habitView struct {
	Habits   []habitRow
	Sessions int // sessions whose record has saverd's part
	// The sums of the sessions' own figures: dollars over the priced sessions, tokens over the others.
	SavedUSD, JudgeUSD, InstructionsUSD, NetUSD float64
	SavedTokens, JudgeTokens                    int64
	Unpriced                                    int // sessions whose figures are tokens only
	Chart                                       chart
}

type habitRow struct {
	ID, Category, Why string
	Found             int // sessions it was named in
	Fixed             int // of those, sessions where the person fixed it
	Ignored           int
	SavedTokens       float64
	SavedUSD          float64
	Hits              int
}

func habits(recs []agentlog.Record) habitView {
	var v habitView
	at := map[string]*habitRow{}
	for i := range recs {
		s := recs[i].Saver
		if s == nil {
			continue
		}
		v.Sessions++
		if s.Priced && s.SavedUSD != nil && s.JudgeUSD != nil && s.NetUSD != nil {
			v.SavedUSD += *s.SavedUSD
			v.JudgeUSD += *s.JudgeUSD
			if s.InstructionsUSD != nil {
				v.InstructionsUSD += *s.InstructionsUSD
			}
			v.NetUSD += *s.NetUSD
		} else {
			v.Unpriced++
		}
		v.SavedTokens += s.SavedTokens
		v.JudgeTokens += s.JudgeTokens
		for _, h := range s.Habits {
			row := at[h.ID]
			if row == nil {
				row = &habitRow{ID: h.ID, Category: h.Category, Why: h.Why}
				at[h.ID] = row
			}
			row.Found++
			row.Hits += h.Hits
			switch h.Decision {
			case "fix", "fix-with-note":
				row.Fixed++
			case "ignore":
				row.Ignored++
			}
			row.SavedTokens += h.SavedTokens
			if h.SavedUSD != nil {
				row.SavedUSD += *h.SavedUSD
			}
		}
	}
	v.SavedUSD, v.JudgeUSD, v.InstructionsUSD, v.NetUSD = round6(v.SavedUSD), round6(v.JudgeUSD), round6(v.InstructionsUSD), round6(v.NetUSD)
	for _, row := range at {
		row.SavedUSD = round6(row.SavedUSD)
		v.Habits = append(v.Habits, *row)
	}
	sort.Slice(v.Habits, func(i, j int) bool {
		a, b := v.Habits[i], v.Habits[j]
		if a.SavedTokens != b.SavedTokens {
			return a.SavedTokens > b.SavedTokens
		}
		return a.ID < b.ID
	})
	v.Chart = habitChart(v.Habits)
	return v
}

// habitChart is a bar per habit of the cache-read tokens its fixes spared.
func habitChart(rows []habitRow) chart {
	var cols []day
	for _, r := range rows {
		if r.SavedTokens > 0 {
			cols = append(cols, day{Key: r.ID, Priced: r.SavedTokens, Series: []share{{Name: "saved", Priced: r.SavedTokens}}})
		}
	}
	c := stacked(cols, inTokens, func(k string) string { return k })
	c.Legend = nil
	return c
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
