package impact

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// exampleRepo builds L-ex's repository and returns it with the commit shas
// c1..c6 by name.
func exampleRepo(t *testing.T) (*testRepo, map[string]string) {
	r := newRepo(t, t.TempDir(), "demo", "main")
	c := map[string]string{}
	c["c1"] = r.commit(spec{at: at("10:30"), msg: "c1" + claude, lines: 10})
	c["c2"] = r.commit(spec{at: at("11:20"), msg: "c2" + claude, lines: 5}) // in POST_MIN
	c["c3"] = r.commit(spec{at: at("13:00"), msg: "c3" + claude, lines: 4}) // in no window
	c["c4"] = r.commit(spec{at: at("14:10"), msg: "c4", lines: 7})          // local, no trailer
	c["c5"] = r.commit(spec{at: at("14:20"), msg: "c5", lines: 3, email: other})
	c["c6"] = r.revert(c["c2"], at("16:00"))
	return r, c
}

// c3Unheld is what the report says of L-ex's c3: a trailer commit no session's window holds.
const c3Unheld = "carries a claude-code trailer, but no claude-code session's window holds it: unlinked"

// exampleSessions copies testdata/sessions.jsonl with the repo path filled in.
func exampleSessions(t *testing.T, repo string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "sessions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "@REPO@", repo)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWorkedExample is L-ex (protocol.md): its three passes, on a real repo.
func TestWorkedExample(t *testing.T) {
	r, c := exampleRepo(t)
	decisions := filepath.Join(t.TempDir(), "decisions.jsonl")
	opt := Options{Sessions: []string{exampleSessions(t, r.dir)}, Decisions: decisions, Now: now}

	// Pass 1: a by trailer, b pending, c unlinked; c3, a Claude trailer commit in no window, is said.
	rep := query(t, opt)
	if want := "commit " + c["c3"][:12] + " (2025-06-02T13:00:00Z) " + c3Unheld; len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], want) {
		t.Fatalf("warnings: %q, want one saying %q", rep.Warnings, want)
	}
	if len(rep.Records) != 2 {
		t.Fatalf("records: %+v", rep.Records)
	}
	a := record(t, rep, "a", "demo")
	if a.Link != "trailer" || !eqP(a.LinkP, f(1)) || !reflect.DeepEqual(a.Commits, []string{c["c1"], c["c2"]}) ||
		a.Added != 15 || a.CommitsKept != 1 || a.CommitsReverted != 1 || a.Cost != 2 {
		t.Errorf("record a = %+v", a)
	}
	if a.Details[1].RevertedBy != c["c6"] {
		t.Errorf("c2 reverted_by = %q, want c6 %s", a.Details[1].RevertedBy, c["c6"])
	}
	b := record(t, rep, "b", "demo")
	if b.Link != "window" || b.LinkP != nil || !reflect.DeepEqual(b.Commits, []string{c["c4"]}) || b.Added != 7 {
		t.Errorf("record b = %+v", b)
	}
	if want := subjectOf("b", []string{c["c4"]}); b.Subject != want {
		t.Errorf("subject b = %q, want %q", b.Subject, want)
	}
	checkSummary(t, rep, summaryWant{linked: 1, total: 3, cost: 2, lines: 10, kept: 1, reverted: 1,
		perKept: f(2), per100: f(20), rate: f(0.5), unlinked: 1.5})
	if p := rep.PendingSubjects(); len(p) != 1 || p[0].Subject != b.Subject || p[0].Repos[0].Commits[0].SHA != c["c4"] {
		t.Errorf("pending = %+v", p)
	}

	// Pass 2: p(b) = 0.8 links b.
	if err := Decide(decisions, b.Subject, 0.8, now); err != nil {
		t.Fatal(err)
	}
	rep = query(t, opt)
	if b := record(t, rep, "b", "demo"); !eqP(b.LinkP, f(0.8)) || b.Cost != 1 {
		t.Errorf("record b after 0.8 = %+v", b)
	}
	checkSummary(t, rep, summaryWant{linked: 2, total: 3, cost: 3, lines: 17, kept: 2, reverted: 1,
		perKept: f(1.5), per100: f(17.647059), rate: f(0.333333), unlinked: 0.5})
	if p := rep.PendingSubjects(); len(p) != 0 {
		t.Errorf("pending after decision = %+v", p)
	}

	// Pass 3: a later p(b) = 0.3 drops b.
	if err := Decide(decisions, b.Subject, 0.3, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	rep = query(t, opt)
	if hasRecord(rep, "b") {
		t.Errorf("b not dropped: %+v", rep.Records)
	}
	checkSummary(t, rep, summaryWant{linked: 1, total: 3, cost: 2, lines: 10, kept: 1, reverted: 1,
		perKept: f(2), per100: f(20), rate: f(0.5), unlinked: 1.5})
}

type summaryWant struct {
	linked, total         int
	cost                  float64
	lines, kept, reverted int
	perKept, per100, rate *float64
	unlinked              float64
}

// checkSummary checks the summary of a single-repo report: by_repo["demo"],
// and by_harness summed, agree with want.
func checkSummary(t *testing.T, rep *Report, w summaryWant) {
	t.Helper()
	s := rep.Summary
	if s.Linked != w.linked || s.SessionsTotal != w.total || s.UnlinkedCost != w.unlinked {
		t.Errorf("linked %d/%d unlinked %v, want %d/%d unlinked %v", s.Linked, s.SessionsTotal, s.UnlinkedCost,
			w.linked, w.total, w.unlinked)
	}
	g := s.ByRepo["demo"]
	if g == nil {
		t.Fatalf("by_repo has no demo: %+v", s.ByRepo)
	}
	if g.Cost != w.cost || g.LinesAdded != w.lines || g.CommitsKept != w.kept || g.CommitsReverted != w.reverted ||
		!eqP(g.CostPerKeptCommit, w.perKept) || !eqP(g.CostPer100Lines, w.per100) || !eqP(g.RevertRate, w.rate) {
		t.Errorf("by_repo demo = cost %v lines %d kept %d reverted %d per_kept %s per_100 %s rate %s; want %+v",
			g.Cost, g.LinesAdded, g.CommitsKept, g.CommitsReverted, showP(g.CostPerKeptCommit),
			showP(g.CostPer100Lines), showP(g.RevertRate), w)
	}
	var cost float64
	for _, h := range s.ByHarness {
		cost += h.Cost
	}
	if round6(cost) != w.cost {
		t.Errorf("Σ by_harness cost = %v, want %v", cost, w.cost)
	}
}
