package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/internal/agentlogtest"
	"github.com/saverd/saverd/report"
)

// reportFixture is a git repository whose commits two Claude Code sessions made (an agent trailer each,
// in two ISO weeks), a third session that committed nothing, and a daemon sessions log saying what
// saverd found and fixed in two of them.
type reportFixture struct {
	claude, repo, sessionsLog string
	now                       string
}

func newReportFixture(t *testing.T) reportFixture {
	t.Helper()
	root := t.TempDir()
	f := reportFixture{claude: filepath.Join(root, "claude"), repo: filepath.Join(root, "shop"),
		sessionsLog: filepath.Join(root, "state", "sessions.jsonl"), now: "2026-12-03T00:00:00Z"}
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = f.repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(f.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("2026-11-20T09:00:00Z", "init", "-q", "-b", "main")
	git("2026-11-20T09:00:00Z", "config", "user.email", "dev@example.com")
	commit := func(date, file string, lines int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(f.repo, file), []byte(strings.Repeat("line\n", lines)), 0o644); err != nil {
			t.Fatal(err)
		}
		git(date, "add", file)
		git(date, "commit", "-q", "-m", "work on "+file+"\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	}
	commit("2026-11-23T10:30:00Z", "a.go", 10)
	commit("2026-11-23T10:50:00Z", "b.go", 5)
	commit("2026-12-01T14:20:00Z", "c.go", 20)

	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	use := agentlogtest.Call{Input: 2000, Output: 400, CacheRead: 50000, CacheWrite: 4000, Tools: []string{"Edit"}}
	sessions := []agentlogtest.Session{
		{ID: "week1", Cwd: f.repo, Model: "claude-opus-5-5", Calls: agentlogtest.Every(at("2026-11-23T10:00:00Z"), 5*time.Minute, 12, use)},
		{ID: "week2", Cwd: f.repo, Model: "claude-sonnet-5", Calls: agentlogtest.Every(at("2026-12-01T14:00:00Z"), 4*time.Minute, 12, use)},
		{ID: "idle", Cwd: f.repo, Model: "claude-opus-5-5", Calls: agentlogtest.Every(at("2026-12-02T08:00:00Z"), time.Minute, 3, use)},
	}
	for i, s := range sessions {
		path, err := agentlogtest.WriteClaude(f.claude, s)
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			continue
		}
		// The daemon's record of the session: the transcript's, with what saverd did in it.
		rec, err := claude.ReadSession(path, agentlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		saved, judge := 0.0125*float64(i+1), 0.004
		rec.Saver = &agentlog.Saver{Priced: true, SavedUSD: &saved, JudgeUSD: &judge, NetUSD: new(saved - judge),
			SavedTokens: int64(62500 * (i + 1)), JudgeTokens: 20000, Habits: []agentlog.Habit{
				{ID: "execution:full-suite", Category: "execution", Why: "the whole suite after one-file edits <b>", Decision: "fix", Hits: 4,
					SavedChars: 250000 * float64(i+1), SavedTokens: 62500 * float64(i+1), SavedUSD: &saved},
				{ID: "reading:reread", Category: "reading", Why: "the same file read again", Decision: []string{"open", "ignore"}[i], Hits: 2},
			}}
		if err := agentlog.AppendRecord(f.sessionsLog, rec); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// TestReportInChromium: the page saverd report writes loads in headless Chromium with no console error
// and no request beyond the page itself, and every figure read back from the rendered DOM equals what
// `saverd sessions --format json` and `saverd impact --format json` say on the same logs and repository,
// or what the test recomputes from them and from the sessions log it wrote.
func TestReportInChromium(t *testing.T) {
	browser := chromiumPath(t)
	f := newReportFixture(t)
	logs := []string{"--claude-dir", f.claude}
	page := filepath.Join(t.TempDir(), "report.html")
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runBinary(t, args...)
		if code != 0 {
			t.Fatalf("saverd %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	run(append([]string{"report", "--out", page, "--now", f.now, "--tz", "UTC", "--repo", f.repo, "--sessions-log", f.sessionsLog}, logs...)...)
	var sessions, byDay, byModel struct {
		Sessions []agentlog.Record `json:"sessions"`
		By       []report.Group    `json:"by"`
		Totals   report.Group      `json:"totals"`
	}
	decode(t, run(append([]string{"sessions", "--format", "json"}, logs...)...), &sessions)
	decode(t, run(append([]string{"sessions", "--format", "json", "--by", "day", "--tz", "UTC"}, logs...)...), &byDay)
	decode(t, run(append([]string{"sessions", "--format", "json", "--by", "model"}, logs...)...), &byModel)
	var imp struct {
		Records []struct {
			SessionID string   `json:"session_id"`
			RepoLabel string   `json:"repo_label"`
			LinkP     *float64 `json:"link_p"`
			Cost      float64  `json:"cost"`
			Kept      int      `json:"commits_kept"`
			Added     int      `json:"added"`
			Details   []struct {
				Added      int    `json:"added"`
				RevertOf   string `json:"revert_of"`
				RevertedBy string `json:"reverted_by"`
			} `json:"commit_details"`
		} `json:"records"`
		Summary struct {
			ByRepo map[string]struct {
				Cost      float64  `json:"cost"`
				Kept      int      `json:"commits_kept"`
				Lines     int      `json:"lines_added"`
				PerCommit *float64 `json:"cost_per_kept_commit"`
				Per100    *float64 `json:"cost_per_100_lines"`
			} `json:"by_repo"`
		} `json:"summary"`
	}
	decode(t, run(append([]string{"impact", "--format", "json", "--now", f.now, "--repo", f.repo}, logs...)...), &imp)

	dom := renderReport(t, browser, page)

	// Totals and the costliest sessions: sessions --format json.
	if dom.Totals["sessions"] != strconv.Itoa(sessions.Totals.Sessions) || !sameUSD(dom.Totals["priced"], sessions.Totals.Priced) ||
		len(sessions.Sessions) != 3 {
		t.Errorf("totals %v, sessions say %+v", dom.Totals, sessions.Totals)
	}
	recs := append([]agentlog.Record(nil), sessions.Sessions...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Cost.Priced > recs[j].Cost.Priced })
	if len(dom.Top) != len(recs) {
		t.Fatalf("%d top rows, want %d", len(dom.Top), len(recs))
	}
	for i, r := range recs {
		if row := dom.Top[i]; row["session"] != r.SessionID || !sameUSD(row["usd"], r.Cost.Priced) || row["calls"] != strconv.Itoa(r.Calls) {
			t.Errorf("top row %d %v, want %s $%v", i, row, r.SessionID, r.Cost.Priced)
		}
	}
	// Each day's total is --by day's; each model's shares over the days add up to --by model's.
	days := map[string]string{}
	for _, d := range dom.DayTotals {
		days[d["day"]] = d["usd"]
	}
	if len(days) != len(byDay.By) {
		t.Errorf("the page has %d days, sessions --by day %d", len(days), len(byDay.By))
	}
	for _, g := range byDay.By {
		if !sameUSD(days[g.Key], g.Priced) {
			t.Errorf("day %s: page %s, sessions --by day %v", g.Key, days[g.Key], g.Priced)
		}
	}
	models := map[string]float64{}
	for _, s := range dom.Shares {
		v, _ := strconv.ParseFloat(s["usd"], 64)
		_, model, _ := strings.Cut(s["series"], " · ")
		models[model] += v
	}
	for _, g := range byModel.By {
		if math.Abs(models[g.Key]-g.Priced) > 1e-8 {
			t.Errorf("model %s: the page's days add up to %v, sessions --by model %v", g.Key, models[g.Key], g.Priced)
		}
	}
	// Impact per repository: impact --format json's summary.
	if len(dom.Repos) != len(imp.Summary.ByRepo) || len(imp.Summary.ByRepo) != 1 {
		t.Fatalf("repos %v, impact %v", dom.Repos, imp.Summary.ByRepo)
	}
	for _, row := range dom.Repos {
		g := imp.Summary.ByRepo[row["repo"]]
		if !sameUSD(row["cost"], g.Cost) || row["kept"] != strconv.Itoa(g.Kept) || row["lines"] != strconv.Itoa(g.Lines) ||
			!sameOptUSD(row["perCommit"], g.PerCommit) || !sameOptUSD(row["perHundred"], g.Per100) {
			t.Errorf("repo row %v, impact says %+v", row, g)
		}
	}
	// Week by week, recomputed here from impact's records and the sessions' starts.
	start := map[string]time.Time{}
	for _, r := range sessions.Sessions {
		start[r.SessionID] = r.Start
	}
	type sum struct {
		cost        float64
		kept, lines int
	}
	weeks := map[string]*sum{}
	for _, r := range imp.Records {
		if r.LinkP == nil {
			continue
		}
		s := start[r.SessionID].UTC()
		monday := s.AddDate(0, 0, -((int(s.Weekday()) + 6) % 7)).Format(time.DateOnly)
		w := weeks[r.RepoLabel+" "+monday]
		if w == nil {
			w = &sum{}
			weeks[r.RepoLabel+" "+monday] = w
		}
		reverted := 0
		for _, d := range r.Details {
			if d.RevertedBy != "" && d.RevertOf == "" {
				reverted += d.Added
			}
		}
		w.cost += r.Cost
		w.kept += r.Kept
		w.lines += max(0, r.Added-reverted)
	}
	if len(dom.Weeks) != 2 || len(weeks) != 2 {
		t.Fatalf("weeks on the page %v, recomputed %d", dom.Weeks, len(weeks))
	}
	for _, row := range dom.Weeks {
		w := weeks[row["repo"]+" "+row["week"]]
		if w == nil {
			t.Fatalf("the page's week %v is not impact's", row)
		}
		if !sameUSD(row["cost"], w.cost) || row["kept"] != strconv.Itoa(w.kept) || row["lines"] != strconv.Itoa(w.lines) ||
			!sameUSD(row["perCommit"], w.cost/float64(w.kept)) || !sameUSD(row["perHundred"], 100*w.cost/float64(w.lines)) {
			t.Errorf("week row %v, recomputed %+v", row, *w)
		}
	}
	// Habits: the sessions log's records, summed here.
	data, err := os.ReadFile(f.sessionsLog)
	if err != nil {
		t.Fatal(err)
	}
	var saved, judge, net float64
	habitSaved, fixed := map[string]float64{}, map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r agentlog.Record
		decode(t, line, &r)
		saved, judge, net = saved+*r.Saver.SavedUSD, judge+*r.Saver.JudgeUSD, net+*r.Saver.NetUSD
		for _, h := range r.Saver.Habits {
			habitSaved[h.ID] += h.SavedTokens
			if h.Decision == "fix" {
				fixed[h.ID]++
			}
		}
	}
	if !sameUSD(dom.Habits["savedUsd"], saved) || !sameUSD(dom.Habits["judgeUsd"], judge) || !sameUSD(dom.Habits["netUsd"], net) || dom.Habits["sessions"] != "2" {
		t.Errorf("habits %v, the log says saved %v judge %v net %v", dom.Habits, saved, judge, net)
	}
	if len(dom.HabitRows) != len(habitSaved) {
		t.Errorf("habit rows %v, the log has %v", dom.HabitRows, habitSaved)
	}
	for _, h := range dom.HabitRows {
		if v, _ := strconv.ParseFloat(h["savedTokens"], 64); v != habitSaved[h["habit"]] || h["fixed"] != strconv.Itoa(fixed[h["habit"]]) {
			t.Errorf("habit row %v, the log says %v tokens, fixed %d", h, habitSaved[h["habit"]], fixed[h["habit"]])
		}
	}
	if !strings.Contains(dom.Text, "the whole suite after one-file edits <b>") || dom.Bold != 0 {
		t.Errorf("a habit's reason is text on the page, never markup (bold elements: %d)", dom.Bold)
	}
	if dom.Bars == 0 || dom.Lines == 0 {
		t.Errorf("charts: %d bars, %d lines", dom.Bars, dom.Lines)
	}
}

// domFigures is what the page shows, read from its data- attributes.
type domFigures struct {
	Totals    map[string]string   `json:"totals"`
	Top       []map[string]string `json:"top"`
	DayTotals []map[string]string `json:"dayTotals"`
	Shares    []map[string]string `json:"shares"`
	Repos     []map[string]string `json:"repos"`
	Weeks     []map[string]string `json:"weeks"`
	Habits    map[string]string   `json:"habits"`
	HabitRows []map[string]string `json:"habitRows"`
	Text      string              `json:"text"`
	Bold      int                 `json:"bold"`
	Bars      int                 `json:"bars"`
	Lines     int                 `json:"lines"`
}

const readDOM = `(() => {
  const all = (sel) => Array.from(document.querySelectorAll(sel)).map(e => Object.assign({}, e.dataset));
  const one = (sel) => Object.assign({}, document.querySelector(sel).dataset);
  return {
    totals: one('#totals'), top: all('#top tr[data-session]'), dayTotals: all('#daily tr.day-total'),
    shares: all('#daily tr.share'), repos: all('#impact tr.repo'), weeks: all('#impact tr.week'),
    habits: one('#habits'), habitRows: all('#habits tr.habit'), text: document.body.innerText,
    bold: document.querySelectorAll('#habits td b').length,
    bars: document.querySelectorAll('#daily svg rect').length, lines: document.querySelectorAll('#impact svg polyline').length,
  };
})()`

// renderReport loads the page in headless Chromium and reads its figures back; a console error, an
// exception or any request but the page's own fails the test.
func renderReport(t *testing.T, browser, page string) domFigures {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true)}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTime()
	var mu sync.Mutex
	var problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, "console "+string(e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				problems = append(problems, "log "+string(e.Entry.Level)+": "+e.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady("#habits")); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom, err := chromedp.Run(ctx, chromedp.Evaluate[domFigures](readDOM))
	if err != nil {
		t.Fatalf("chromium: read the page: %v", err)
	}
	resources, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`performance.getEntriesByType('resource').map(r => r.name)`))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 || len(resources) > 0 {
		t.Fatalf("the page logged %v and fetched %v: it must load clean and self-contained", problems, resources)
	}
	return dom
}

// chromiumPath is Debian's chromium, which .ci/run installs; a machine without it skips, CI fails.
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: .ci/run installs Debian's chromium for this test")
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the report's browser test needs it")
	return ""
}

func decode(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v:\n%s", err, s)
	}
}

// sameUSD: the page's exact figure is the JSON's, to the nine decimals the sums keep.
func sameUSD(s string, want float64) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && math.Abs(v-want) < 2e-6
}

func sameOptUSD(s string, want *float64) bool {
	if want == nil {
		return s == ""
	}
	return sameUSD(s, *want)
}
