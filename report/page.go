package report

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/textout"
)

// Input is what the page shows: the sessions read from the agents' logs, the daemon's own records
// (their habits), impact's report over the same sessions, and how to date them.
type Input struct {
	Sessions []agentlog.Record
	// Daemon are the records of the daemon's sessions log, the last of each session; only their Saver
	// is read.
	Daemon []agentlog.Record
	Impact *impact.Report // nil: no impact section
	Loc    *time.Location
	Now    time.Time
	// Top is how many of the costliest sessions are listed; 0: 10.
	Top      int
	Warnings []string
}

// Write writes the report as one self-contained HTML page: styles inline, charts drawn here as SVG, no
// script and nothing fetched when it is viewed. Every figure is in the page twice: as text for a person
// and exact in a data- attribute, which the tests read back and hold to `saverd sessions` and `saverd
// impact`'s JSON.
func Write(w io.Writer, in Input) error {
	if in.Loc == nil {
		in.Loc = time.Local
	}
	if in.Top <= 0 {
		in.Top = 10
	}
	p := page{
		Generated: in.Now.In(in.Loc).Format("2006-01-02 15:04 MST"),
		Totals:    Totals(in.Sessions),
		Daily:     daily(in.Sessions, in.Loc),
		Top:       top(in.Sessions, in.Top, in.Loc),
		Habits:    habits(in.Daemon),
		Warnings:  in.Warnings,
	}
	p.DailyChart = dailyChart(p.Daily)
	if in.Impact != nil {
		p.Impact = impactSection(in.Impact, in.Loc)
	}
	return pageTemplate.Execute(w, p)
}

type page struct {
	Generated  string
	Totals     Group
	Daily      []day
	DailyChart chart
	Top        []topRow
	Impact     *impactView
	Habits     habitView
	Warnings   []string
}

// day is one day's spend by harness and model, the session's start day as `sessions --by day` counts it.
type day struct {
	Key    string
	Series []share
	Priced float64
}

// share is one harness's model's part of a day.
type share struct {
	Name   string // "harness · model"
	Priced float64
	Cost   *float64 // nil: the model has no price
	Calls  int
}

func daily(recs []agentlog.Record, loc *time.Location) []day {
	at := map[string]map[string]*share{}
	for i := range recs {
		r := &recs[i]
		k := PeriodKey(r.Start, "day", loc)
		if at[k] == nil {
			at[k] = map[string]*share{}
		}
		for model, m := range r.Models {
			name := r.Harness + " · " + model
			s := at[k][name]
			if s == nil {
				s = &share{Name: name, Cost: new(float64)}
				at[k][name] = s
			}
			s.Calls += m.Calls
			if m.Cost == nil {
				s.Cost = nil
				continue
			}
			s.Priced += *m.Cost
			if s.Cost != nil {
				*s.Cost += *m.Cost
			}
		}
	}
	out := make([]day, 0, len(at))
	for k, series := range at {
		d := day{Key: k}
		for _, s := range series {
			s.Priced = round9(s.Priced)
			if s.Cost != nil {
				*s.Cost = round9(*s.Cost)
			}
			d.Priced += s.Priced
			d.Series = append(d.Series, *s)
		}
		d.Priced = round9(d.Priced)
		sort.Slice(d.Series, func(i, j int) bool { return d.Series[i].Name < d.Series[j].Name })
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// topRow is one of the costliest sessions.
type topRow struct {
	ID, Harness, Project, Start string
	Calls                       int
	Tokens                      int64
	Priced                      float64
	Cost                        *float64
}

func top(recs []agentlog.Record, n int, loc *time.Location) []topRow {
	idx := make([]int, len(recs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return recs[idx[a]].Cost.Priced > recs[idx[b]].Cost.Priced })
	var out []topRow
	for _, i := range idx[:min(n, len(idx))] {
		r := &recs[i]
		row := topRow{ID: r.SessionID, Harness: r.Harness, Project: "-", Start: r.Start.In(loc).Format("2006-01-02 15:04"),
			Calls: r.Calls, Tokens: r.Tokens.Total(), Priced: r.Cost.Priced, Cost: r.Cost.Total}
		if r.Project != nil {
			row.Project = *r.Project
		}
		out = append(out, row)
	}
	return out
}

// Formatting for people: the exact figure goes in a data- attribute beside it.
var funcs = template.FuncMap{
	"usd": textout.Cents,
	"cost": func(c *float64, priced float64) string {
		s := "$" + strconv.FormatFloat(priced, 'f', 2, 64)
		if c == nil {
			return s + "+"
		}
		return s
	},
	"exact": func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) },
	"opt": func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	},
	"optUSD": func(v *float64) string {
		if v == nil {
			return "—"
		}
		return textout.Cents(*v)
	},
	"tokens": func(n int64) string {
		switch {
		case n >= 1_000_000:
			return strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64) + "M"
		case n >= 10_000:
			return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
		}
		return strconv.FormatInt(n, 10)
	},
	"int": func(n int64) string { return strconv.FormatInt(n, 10) },
	"f0":  func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) },
	"pct": func(v float64) string { return fmt.Sprintf("%.0f%%", v*100) },
}
