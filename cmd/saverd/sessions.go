package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
)

const sessionsUsage = `Usage:
  saverd sessions [flags]      one row per agent session read from the agents' own logs, with totals

Flags:
  --since D          sessions active since D: a date (2026-11-01, local time), RFC 3339, or an age (7d, 12h)
  --harness H        claude-code or codex
  --repo DIR         sessions whose git repository (or working directory) is DIR or inside it
  --by K             day, model or project: one row per group instead of per session
  --format F         table, json, ndjson or csv (default: table on a terminal, else json)
  --claude-dir DIR   Claude Code's config directory (repeatable; default $CLAUDE_CONFIG_DIR, else ~/.claude
                     and ~/.config/claude)
  --codex-dir DIR    Codex's home (repeatable; default $CODEX_HOME, else ~/.codex)
  --prices FILE      price overrides (default <config dir>/prices.json when it exists)
`

// sessionsCmd holds the flags of `saverd sessions`.
type sessionsCmd struct {
	logs    logFlags
	since   string
	harness string
	repo    string
	by      string
	format  string

	from time.Time // --since resolved
}

// runSessions is `saverd sessions`: 0 on success (warnings on stderr), 2 on a usage error, 1 when the logs
// cannot be read at all (a bad prices file) or the output cannot be written.
func runSessions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &sessionsCmd{}
	fs := flag.NewFlagSet("saverd sessions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	c.logs.register(fs)
	fs.StringVar(&c.since, "since", "", "")
	fs.StringVar(&c.harness, "harness", "", "")
	fs.StringVar(&c.repo, "repo", "", "")
	fs.StringVar(&c.by, "by", "", "")
	fs.StringVar(&c.format, "format", "", "")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, sessionsUsage)
		return 0
	}
	if err != nil {
		return sessionsUsageError(stderr, "")
	}
	if fs.NArg() > 0 {
		return sessionsUsageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := c.check(time.Now(), stdout); err != nil {
		return sessionsUsageError(stderr, err.Error())
	}
	recs, warn, err := c.logs.read(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "saverd sessions: %v\n", err)
		return 1
	}
	for _, w := range warn {
		fmt.Fprintf(stderr, "saverd sessions: warning: %s\n", w)
	}
	recs = c.filter(recs)
	if err := c.write(stdout, recs, warn); err != nil {
		fmt.Fprintf(stderr, "saverd sessions: write output: %v\n", err)
		return 1
	}
	return 0
}

func sessionsUsageError(stderr io.Writer, msg string) int {
	return usageError(stderr, "sessions", sessionsUsage, msg)
}

func (c *sessionsCmd) check(now time.Time, stdout io.Writer) error {
	if c.since != "" {
		t, err := parseSince(c.since, now)
		if err != nil {
			return err
		}
		c.from = t
	}
	switch c.harness {
	case "", agentlog.HarnessClaude, agentlog.HarnessCodex:
	default:
		return fmt.Errorf("--harness: want %s or %s, got %q", agentlog.HarnessClaude, agentlog.HarnessCodex, c.harness)
	}
	switch c.by {
	case "", "day", "model", "project":
	default:
		return fmt.Errorf("--by: want day, model or project, got %q", c.by)
	}
	switch c.format {
	case "":
		c.format = "json"
		if isTerminal(stdout) {
			c.format = "table"
		}
	case "table", "json", "ndjson", "csv":
	default:
		return fmt.Errorf("--format: want table, json, ndjson or csv, got %q", c.format)
	}
	if c.repo != "" {
		abs, err := filepath.Abs(c.repo)
		if err != nil {
			return fmt.Errorf("--repo %s: %w", c.repo, err)
		}
		c.repo = resolved(abs)
	}
	return nil
}

// parseSince reads --since: a local date, RFC 3339, or an age before now in days (7d) or any Go duration.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d >= 0 {
			return now.AddDate(0, 0, -d), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since: want a date (2026-11-01), RFC 3339 or an age (7d, 12h), got %q", s)
}

// resolved is p with symlinks resolved when it can be.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func (c *sessionsCmd) filter(recs []agentlog.Record) []agentlog.Record {
	if c.from.IsZero() && c.harness == "" && c.repo == "" {
		return recs // no filter: thousands of records are not copied one by one
	}
	out := recs[:0:0]
	for _, r := range recs {
		if !c.from.IsZero() && r.End.Before(c.from) {
			continue
		}
		if c.harness != "" && r.Harness != c.harness {
			continue
		}
		if c.repo != "" && !inRepo(r, c.repo) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// inRepo: the session's repository, or else its working directory, is dir or below it.
func inRepo(r agentlog.Record, dir string) bool {
	where := r.Cwd
	if r.Repo != nil {
		where = *r.Repo
	}
	if where == "" {
		return false
	}
	where = resolved(where)
	return where == dir || strings.HasPrefix(where, dir+string(filepath.Separator))
}

// group is a sum over sessions: the totals, or one day, model or project.
type group struct {
	Key      string          `json:"key,omitempty"`
	Sessions int             `json:"sessions"`
	Calls    int             `json:"calls"`
	Tokens   agentlog.Tokens `json:"tokens"`
	// Cost is null when some call in the group has no price; Priced sums the calls that have one.
	Cost     *float64 `json:"cost"`
	Priced   float64  `json:"priced"`
	Unpriced []string `json:"unpriced_models,omitempty"`
}

func (g *group) add(calls int, tok agentlog.Tokens, cost *float64, unpriced []string) {
	g.Sessions++
	g.Calls += calls
	g.Tokens.Add(tok)
	if cost != nil {
		g.Priced += *cost
	}
	for _, m := range unpriced {
		if !hasString(g.Unpriced, m) {
			g.Unpriced = append(g.Unpriced, m)
		}
	}
}

func (g *group) finish() {
	g.Priced = round9(g.Priced)
	sort.Strings(g.Unpriced)
	g.Cost = nil
	if len(g.Unpriced) == 0 {
		v := g.Priced
		g.Cost = &v
	}
}

func hasString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func round9(x float64) float64 { return float64(int64(x*1e9+0.5)) / 1e9 }

func totals(recs []agentlog.Record) group {
	var g group
	for i := range recs {
		r := &recs[i]
		g.add(r.Calls, r.Tokens, &r.Cost.Priced, r.Cost.Unpriced)
	}
	g.finish()
	return g
}

// groups sums the sessions by day (of the session's start, local time), model or project, sorted by key.
func groups(recs []agentlog.Record, by string) []group {
	at := make(map[string]*group)
	get := func(k string) *group {
		g := at[k]
		if g == nil {
			g = &group{Key: k}
			at[k] = g
		}
		return g
	}
	for i := range recs {
		r := &recs[i]
		switch by {
		case "model":
			for name, m := range r.Models {
				var unpriced []string
				if m.Cost == nil {
					unpriced = []string{name}
				}
				get(name).add(m.Calls, m.Tokens, m.Cost, unpriced)
			}
		case "project":
			k := "-"
			if r.Project != nil {
				k = *r.Project
			}
			get(k).add(r.Calls, r.Tokens, &r.Cost.Priced, r.Cost.Unpriced)
		default:
			get(r.Start.Local().Format(time.DateOnly)).add(r.Calls, r.Tokens, &r.Cost.Priced, r.Cost.Unpriced)
		}
	}
	out := make([]group, 0, len(at))
	for _, g := range at {
		g.finish()
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
