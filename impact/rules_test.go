package impact

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOutsideSession is L-outside and L-split: a session started in the
// parent dir (or with a null repo) wins trailer commits in two repos; its
// cost is split by commits, and it never takes window commits.
func TestOutsideSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		repo func(parent string) any
	}{
		{"parent dir", func(parent string) any { return parent }},
		{"null repo", func(string) any { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			alpha := newRepo(t, parent, "alpha", "main")
			beta := newRepo(t, parent, "beta", "main")
			a1 := alpha.commit(spec{at: at("10:10"), msg: "a1" + claude, lines: 4})
			alpha.commit(spec{at: at("10:20"), msg: "a2, mine, no trailer", lines: 9})
			b1 := beta.commit(spec{at: at("10:30"), msg: "b1" + claude, lines: 2})
			b2 := beta.commit(spec{at: at("10:40"), msg: "b2" + claude, lines: 3})
			sessions := writeSessions(t, busy("o", "claude-code", tc.repo(parent), at("10:00"), at("11:00"), 3))
			opt := Options{Sessions: []string{sessions}, Repos: []string{alpha.dir, beta.dir}}

			rep := query(t, opt)
			ra, rb := record(t, rep, "o", "alpha"), record(t, rep, "o", "beta")
			if ra.Link != "trailer" || !eqP(ra.LinkP, f(OutsideP)) || !reflect.DeepEqual(ra.Commits, []string{a1}) || ra.Cost != 1 {
				t.Errorf("alpha record = %+v", ra)
			}
			if rb.Link != "trailer" || !eqP(rb.LinkP, f(OutsideP)) || !reflect.DeepEqual(rb.Commits, []string{b1, b2}) || rb.Cost != 2 {
				t.Errorf("beta record = %+v", rb)
			}
			s := rep.Summary
			if s.ByRepo["alpha"].Cost+s.ByRepo["beta"].Cost != 3 || s.ByHarness["claude-code"].Cost != 3 || s.UnlinkedCost != 0 {
				t.Errorf("summary = %+v alpha %+v beta %+v", s, s.ByRepo["alpha"], s.ByRepo["beta"])
			}

			// Without impact.repos the outside session is not a candidate.
			opt.Repos = nil
			rep = query(t, opt)
			if hasRecord(rep, "o") || rep.Summary.UnlinkedCost != 3 {
				t.Errorf("derived repos linked the outside session: %+v", rep.Records)
			}
		})
	}
}

// TestProjectMember is L-repo's second clause: a null repo whose project is
// basename(R) belongs to R, so it takes window commits with link_p pending
// and trailer commits with link_p 1.
func TestProjectMember(t *testing.T) {
	r := newRepo(t, t.TempDir(), "proj", "main")
	r.commit(spec{at: at("10:10"), msg: "t" + codex, lines: 1})
	s := busy("p", "codex", nil, at("10:00"), at("11:00"), 1)
	s.Project = "proj"
	rep := query(t, Options{Sessions: []string{writeSessions(t, s)}, Repos: []string{r.dir}})
	if rec := record(t, rep, "p", "proj"); !eqP(rec.LinkP, f(1)) {
		t.Errorf("record = %+v", rec)
	}
}

// TestTieBreakers is L-assign: each case has two sessions whose windows hold
// the commit; the first listed must win whatever the file order.
func TestTieBreakers(t *testing.T) {
	r := newRepo(t, t.TempDir(), "tie", "main")
	sha := r.commit(spec{at: at("11:10"), msg: "work, committed after the session", lines: 5})
	base := func(id string, start, end time.Time, calls int, tools map[string]int) sessionJSON {
		return sessionJSON{ID: id, Harness: "claude-code", Repo: r.dir, Start: start, End: end, Calls: calls, Tools: tools, Cost: 1}
	}
	write := map[string]int{"Edit": 1}
	read := map[string]int{"Read": 9}
	for _, tc := range []struct {
		name          string
		winner, loser sessionJSON
	}{
		{"helper with 1 call and no tools loses though it holds the commit",
			base("real", at("10:00"), at("11:00"), 40, write), base("helper", at("11:09"), at("11:11"), 1, nil)},
		{"MIN_CALLS before write tools",
			base("many", at("10:00"), at("11:05"), MinCalls, read), base("few", at("11:00"), at("11:20"), MinCalls-1, write)},
		{"write tool before distance",
			base("writer", at("10:00"), at("11:00"), 20, write), base("reader", at("11:00"), at("11:20"), 20, read)},
		{"distance before calls",
			base("near", at("10:00"), at("11:05"), 20, write), base("far", at("10:00"), at("11:00"), 90, write)},
		{"inside the session is distance 0",
			base("inside", at("11:00"), at("11:20"), 20, write), base("before", at("11:14"), at("11:30"), 90, write)},
		{"more calls on equal distance",
			base("more", at("10:00"), at("11:00"), 30, write), base("less", at("10:30"), at("11:00"), 20, write)},
		{"later start on equal calls",
			base("late", at("10:30"), at("11:00"), 20, write), base("early", at("10:00"), at("11:00"), 20, write)},
		{"session_id last",
			base("id-a", at("10:30"), at("11:00"), 20, write), base("id-b", at("10:30"), at("11:00"), 20, write)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range [][]sessionJSON{{tc.winner, tc.loser}, {tc.loser, tc.winner}} {
				rep := query(t, Options{Sessions: []string{writeSessions(t, order...)}})
				if rec := record(t, rep, tc.winner.ID, "tie"); !reflect.DeepEqual(rec.Commits, []string{sha}) {
					t.Errorf("winner record = %+v", rec)
				}
				if hasRecord(rep, tc.loser.ID) {
					t.Errorf("loser %s has a record: %+v", tc.loser.ID, rep.Records)
				}
			}
		})
	}
}

// TestTrailerLinksOwnHarness is L-trailer: a trailer commit goes only to a session
// of its harness, and a session with a trailer link takes no window commit.
func TestTrailerLinksOwnHarness(t *testing.T) {
	r := newRepo(t, t.TempDir(), "th", "main")
	tr := r.commit(spec{at: at("10:10"), msg: "by codex" + codex, lines: 2})
	plain := r.commit(spec{at: at("10:20"), msg: "by hand", lines: 3})
	sessions := writeSessions(t,
		busy("cc", "claude-code", r.dir, at("10:00"), at("11:00"), 1),
		sessionJSON{ID: "cx", Harness: "codex", Repo: r.dir, Start: at("10:05"), End: at("10:15"), Calls: 2, Cost: 1},
	)
	rep := query(t, Options{Sessions: []string{sessions}})
	if rec := record(t, rep, "cx", "th"); rec.Link != "trailer" || !reflect.DeepEqual(rec.Commits, []string{tr}) {
		t.Errorf("codex record = %+v", rec)
	}
	if rec := record(t, rep, "cc", "th"); rec.Link != "window" || !reflect.DeepEqual(rec.Commits, []string{plain}) {
		t.Errorf("claude record = %+v", rec)
	}
}

// TestAuthorDate is L-scan's date rule: the author date decides, and the
// SCAN_MARGIN covers committer dates up to a day off.
func TestAuthorDate(t *testing.T) {
	r := newRepo(t, t.TempDir(), "dates", "main")
	later := r.commit(spec{at: at("10:30"), committed: at("10:30").Add(24 * time.Hour), msg: "committed a day later" + claude, lines: 1})
	earlier := r.commit(spec{at: at("10:40"), committed: at("10:40").Add(-20 * time.Hour), msg: "committed 20h earlier" + claude, lines: 1})
	r.commit(spec{at: at("09:00"), committed: at("10:45"), msg: "authored before the window" + claude, lines: 1})
	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}, Now: now.Add(48 * time.Hour)})
	if rec := record(t, rep, "a", "dates"); !reflect.DeepEqual(rec.Commits, []string{later, earlier}) {
		t.Errorf("commits = %v, want [later earlier] = %v", rec.Commits, []string{later, earlier})
	}
}

// TestWindowEdges is L-window: [start − PRE_MIN, end + POST_MIN], inclusive.
func TestWindowEdges(t *testing.T) {
	r := newRepo(t, t.TempDir(), "edges", "main")
	first := r.commit(spec{at: at("09:55"), msg: "first", lines: 1})
	r.commit(spec{at: at("09:55").Add(-time.Second), msg: "too early", lines: 1})
	last := r.commit(spec{at: at("11:30"), msg: "last", lines: 1})
	r.commit(spec{at: at("11:30").Add(time.Second), msg: "too late", lines: 1})
	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}})
	if rec := record(t, rep, "a", "edges"); !reflect.DeepEqual(rec.Commits, []string{first, last}) {
		t.Errorf("commits = %v, want %v", rec.Commits, []string{first, last})
	}
}

// TestNonLocalAuthorIgnored is L-candidate: only a user.email of the repo
// (any scope) makes a commit without trailer a candidate.
func TestNonLocalAuthorIgnored(t *testing.T) {
	r := newRepo(t, t.TempDir(), "authors", "main")
	r.git(nil, "config", "--add", "user.email", "Second@Example.com")
	mine := r.commit(spec{at: at("10:10"), msg: "mine", lines: 1})
	second := r.commit(spec{at: at("10:20"), msg: "second address", lines: 1, email: "second@example.com"})
	r.commit(spec{at: at("10:30"), msg: "theirs", lines: 1, email: other})
	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}})
	if rec := record(t, rep, "a", "authors"); !reflect.DeepEqual(rec.Commits, []string{mine, second}) {
		t.Errorf("commits = %v, want %v", rec.Commits, []string{mine, second})
	}
	for _, d := range record(t, rep, "a", "authors").Details {
		if len(d.Author) != 12 {
			t.Errorf("author %q is not a 12-hex hash", d.Author)
		}
	}
}

// TestReachability: a commit only on a side branch is linked like any other
// and reported with reachable=false.
func TestReachability(t *testing.T) {
	r := newRepo(t, t.TempDir(), "side", "main")
	onMain := r.commit(spec{at: at("10:10"), msg: "main" + claude, lines: 1})
	r.git(nil, "checkout", "-q", "-b", "side")
	onSide := r.commit(spec{at: at("10:20"), msg: "side" + claude, lines: 1})
	r.git(nil, "checkout", "-q", "main")
	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}})
	rec := record(t, rep, "a", "side")
	got := map[string]bool{}
	for _, d := range rec.Details {
		got[d.SHA] = d.Reachable
	}
	if want := map[string]bool{onMain: true, onSide: false}; !reflect.DeepEqual(got, want) {
		t.Errorf("reachable = %v, want %v", got, want)
	}
	if rec.CommitsKept != 2 {
		t.Errorf("kept = %d, want 2: reachability does not change counting", rec.CommitsKept)
	}
}

// TestDefaultBranch: origin/HEAD, else main, else master, else HEAD. In each
// case c2 sits only on the branch that should be the default one (or, for
// HEAD, on a branch that is not checked out).
func TestDefaultBranch(t *testing.T) {
	for _, tc := range []struct {
		name      string
		setup     func(r *testRepo, c1 string) string // returns c2
		want      string
		c2OnTrunk bool
	}{
		{"origin/HEAD first", func(r *testRepo, c1 string) string {
			r.git(nil, "checkout", "-q", "-b", "trunk")
			c2 := r.commit(spec{at: at("10:20"), msg: "c2", lines: 1})
			r.git(nil, "checkout", "-q", "main")
			r.git(nil, "update-ref", "refs/remotes/origin/trunk", c2)
			r.git(nil, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
			r.git(nil, "branch", "-q", "-D", "trunk")
			return c2
		}, "refs/remotes/origin/HEAD", true},
		{"main before master", func(r *testRepo, c1 string) string {
			r.git(nil, "branch", "master")
			r.git(nil, "checkout", "-q", "-b", "main")
			c2 := r.commit(spec{at: at("10:20"), msg: "c2", lines: 1})
			r.git(nil, "checkout", "-q", "dev")
			return c2
		}, "refs/heads/main", true},
		{"master", func(r *testRepo, c1 string) string {
			r.git(nil, "checkout", "-q", "-b", "master")
			c2 := r.commit(spec{at: at("10:20"), msg: "c2", lines: 1})
			r.git(nil, "checkout", "-q", "dev")
			return c2
		}, "refs/heads/master", true},
		{"HEAD last", func(r *testRepo, c1 string) string {
			r.git(nil, "checkout", "-q", "-b", "feature")
			c2 := r.commit(spec{at: at("10:20"), msg: "c2", lines: 1})
			r.git(nil, "checkout", "-q", "dev")
			return c2
		}, "HEAD", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := "dev"
			if tc.name == "origin/HEAD first" {
				head = "main"
			}
			r := newRepo(t, t.TempDir(), "db", head)
			c1 := r.commit(spec{at: at("10:10"), msg: "c1", lines: 1})
			c2 := tc.setup(r, c1)
			got, err := defaultBranch(t.Context(), git{bin: "git"}, r.dir)
			if err != nil || got != tc.want {
				t.Fatalf("defaultBranch = %q, %v; want %q", got, err, tc.want)
			}
			sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
			rep := query(t, Options{Sessions: []string{sessions}})
			reach := map[string]bool{}
			for _, d := range record(t, rep, "a", "db").Details {
				reach[d.SHA] = d.Reachable
			}
			if reach[c2] != tc.c2OnTrunk || reach[c1] != true {
				t.Errorf("reachable c1=%v c2=%v, want c1=true c2=%v", reach[c1], reach[c2], tc.c2OnTrunk)
			}
		})
	}
}

// TestBinaryFiles: numstat's "-\t-\tpath" counts as a file with 0 lines.
func TestBinaryFiles(t *testing.T) {
	r := newRepo(t, t.TempDir(), "bin", "main")
	sha := r.commit(spec{at: at("10:10"), msg: "image" + claude, lines: 3,
		files: map[string][]byte{"logo.png": {0x89, 'P', 'N', 'G', 0, 0, 1, 2, 0, 255}}})
	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}})
	rec := record(t, rep, "a", "bin")
	if d := rec.Details[0]; d.SHA != sha || d.Files != 2 || d.Added != 3 || d.Deleted != 0 || rec.Added != 3 {
		t.Errorf("details = %+v, added %d", d, rec.Added)
	}
}

// TestRevert is L-revert: a revert named by a short prefix, on any ref, at
// any time up to now, marks the commit reverted; a revert after now does
// not; the revert commit itself is neither kept nor reverted.
func TestRevert(t *testing.T) {
	r := newRepo(t, t.TempDir(), "rv", "main")
	x := r.commit(spec{at: at("10:10"), msg: "x" + claude, lines: 6})
	y := r.commit(spec{at: at("10:20"), msg: "y" + claude, lines: 4})
	z := r.commit(spec{at: at("10:30"), msg: "z" + claude, lines: 2})
	undo := r.commit(spec{at: at("10:40"), msg: "undo x\n\nThis reverts commit " + x[:7] + "." + claude})
	r.git(nil, "checkout", "-q", "-b", "elsewhere")
	yRevert := r.commit(spec{at: at("18:00"), msg: "Revert y\n\nThis reverts commit " + y + "."})
	r.git(nil, "checkout", "-q", "main")
	r.commit(spec{at: now.Add(time.Hour), msg: "This reverts commit " + z[:10] + " (after now)"})

	sessions := writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	rec := record(t, query(t, Options{Sessions: []string{sessions}}), "a", "rv")
	if !reflect.DeepEqual(rec.Commits, []string{x, y, z, undo}) {
		t.Fatalf("commits = %v", rec.Commits)
	}
	by := map[string]string{}
	for _, d := range rec.Details {
		by[d.SHA] = d.RevertedBy
	}
	if by[x] != undo || by[y] != yRevert || by[z] != "" || by[undo] != "" {
		t.Errorf("reverted_by = %v", by)
	}
	if rec.Details[3].RevertOf != x[:7] {
		t.Errorf("revert_of = %q, want %q", rec.Details[3].RevertOf, x[:7])
	}
	if rec.Added != 12 || rec.CommitsKept != 1 || rec.CommitsReverted != 2 {
		t.Errorf("added %d kept %d reverted %d, want 12 1 2", rec.Added, rec.CommitsKept, rec.CommitsReverted)
	}
	if g := query(t, Options{Sessions: []string{sessions}}).Summary.ByRepo["rv"]; g.LinesAdded != 2 {
		t.Errorf("lines_added = %d, want 2 (12 − 6 − 4)", g.LinesAdded)
	}
}

// TestNewSubject is L-subject: a changed commit set gives a new subject, so
// the answer about the old set no longer applies.
func TestNewSubject(t *testing.T) {
	r := newRepo(t, t.TempDir(), "subj", "main")
	c1 := r.commit(spec{at: at("14:10"), msg: "c1", lines: 1})
	sessions := writeSessions(t, busy("b", "codex", r.dir, at("14:00"), at("14:30"), 1))
	decisions := filepath.Join(t.TempDir(), "decisions.jsonl")
	opt := Options{Sessions: []string{sessions}, Decisions: decisions}

	old := record(t, query(t, opt), "b", "subj").Subject
	if old != subjectOf("b", []string{c1}) {
		t.Fatalf("subject %q", old)
	}
	if err := Decide(decisions, old, 0.9, now); err != nil {
		t.Fatal(err)
	}
	if rec := record(t, query(t, opt), "b", "subj"); !eqP(rec.LinkP, f(0.9)) {
		t.Fatalf("decision not applied: %+v", rec)
	}
	c2 := r.commit(spec{at: at("14:20"), msg: "c2", lines: 1})
	rec := record(t, query(t, opt), "b", "subj")
	if rec.Subject == old || rec.Subject != subjectOf("b", []string{c2, c1}) || rec.LinkP != nil {
		t.Errorf("after a new commit: subject %q (old %q), link_p %s", rec.Subject, old, showP(rec.LinkP))
	}
}

// TestSubjectOf pins the L-subject formula on known input:
// sha256("a,b") = 1eb7c54d... (Python: hashlib.sha256(",".join(sorted(shas)).encode()))
func TestSubjectOf(t *testing.T) {
	if got := subjectOf("s1", []string{"b", "a"}); got != "s1:1eb7c54d" {
		t.Errorf("subjectOf = %q, want s1:1eb7c54d", got)
	}
}

// TestSameCommitTwoRepos: a worktree shows the same commits as its main
// checkout; each is linked once.
func TestSameCommitTwoRepos(t *testing.T) {
	parent := t.TempDir()
	r := newRepo(t, parent, "main-checkout", "main")
	sha := r.commit(spec{at: at("10:10"), msg: "once" + claude, lines: 1})
	wt := filepath.Join(parent, "wt")
	r.git(nil, "worktree", "add", "-q", "--detach", wt)
	sessions := writeSessions(t,
		busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1),
		busy("w", "claude-code", wt, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}})
	n := 0
	for _, rec := range rep.Records {
		for _, c := range rec.Commits {
			if c == sha {
				n++
			}
		}
	}
	if n != 1 {
		t.Errorf("commit counted %d times: %+v", n, rep.Records)
	}
	if _, err := os.Stat(wt); err != nil {
		t.Fatal(err)
	}
}

// TestSessionInSubdir: without --repo, a session that ran in a
// subdirectory scans that path, and git finds the enclosing repository.
func TestSessionInSubdir(t *testing.T) {
	r := newRepo(t, t.TempDir(), "mono", "main")
	sha := r.commit(spec{at: at("10:10"), msg: "web" + claude, lines: 1})
	web := filepath.Join(r.dir, "web")
	if err := os.Mkdir(web, 0o755); err != nil {
		t.Fatal(err)
	}
	rep := query(t, Options{Sessions: []string{writeSessions(t, busy("a", "claude-code", web, at("10:00"), at("11:00"), 1))}})
	if rec := record(t, rep, "a", "web"); !reflect.DeepEqual(rec.Commits, []string{sha}) {
		t.Errorf("record = %+v", rec)
	}
}

// TestStashAndNotesAreNoCommits: the commits git makes for a stash and for notes, inside a session's
// window and by the local author, are no work: only the real commit counts.
func TestStashAndNotesAreNoCommits(t *testing.T) {
	r := newRepo(t, t.TempDir(), "r", "main")
	r.commit(spec{at: at("10:05"), msg: "base", lines: 2})
	work := r.commit(spec{at: at("10:10"), msg: "work", lines: 3})
	r.write("f001.txt", []byte("changed, not committed\n"))
	r.git(commitEnv(spec{at: at("10:20")}), "stash")
	r.git(commitEnv(spec{at: at("10:30")}), "notes", "add", "-m", "a note", work)
	sessions := writeSessions(t, busy("s", "codex", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}, Repos: []string{r.dir}})
	rec := record(t, rep, "s", "r")
	if rec.CommitsKept != 2 {
		t.Errorf("commits kept %d, want 2 (base and work; no stash or notes commit): %+v", rec.CommitsKept, rec)
	}
}

// TestRevertInAnotherScannedRepo: L-revert counts a revert made in any scanned repo: the session worked
// in a clone, and the revert landed in the original, which another session's work scans.
func TestRevertInAnotherScannedRepo(t *testing.T) {
	parent := t.TempDir()
	r := newRepo(t, parent, "r", "main")
	x := r.commit(spec{at: at("10:10"), msg: "x" + claude, lines: 3})
	runGit(t, parent, nil, "clone", "-q", r.dir, filepath.Join(parent, "rc"))
	runGit(t, filepath.Join(parent, "rc"), nil, "config", "user.email", me)
	undo := r.revert(x, at("10:20"))
	sessions := writeSessions(t,
		busy("inclone", "claude-code", filepath.Join(parent, "rc"), at("10:00"), at("11:00"), 2),
		busy("inorig", "codex", r.dir, at("10:00"), at("11:00"), 1))
	rep := query(t, Options{Sessions: []string{sessions}, Repos: []string{r.dir, filepath.Join(parent, "rc")}})
	rec := record(t, rep, "inclone", "rc")
	if rec.CommitsKept != 0 || rec.CommitsReverted != 1 || len(rec.Details) != 1 || rec.Details[0].RevertedBy != undo {
		t.Fatalf("the clone's record %+v: want x reverted by %s", rec, undo)
	}
}

// TestJudgeSpendIsTheSessions: what saverd's own forks spent on a session (judge.cost, from the forks
// log) is part of what the session cost, split with it (L-split) and shown apart as judge_cost, so the
// figure `saverd sessions` gives the fork is the one impact counts; a null judge cost is a warning.
func TestJudgeSpendIsTheSessions(t *testing.T) {
	parent := t.TempDir()
	alpha := newRepo(t, parent, "alpha", "main")
	beta := newRepo(t, parent, "beta", "main")
	alpha.commit(spec{at: at("10:10"), msg: "a1" + claude, lines: 4})
	beta.commit(spec{at: at("10:30"), msg: "b1" + claude, lines: 2})
	beta.commit(spec{at: at("10:40"), msg: "b2" + claude, lines: 3})
	line := busy("o", "claude-code", parent, at("10:00"), at("11:00"), 3).line()
	judged := strings.TrimSuffix(line, "}") + `,"judge":{"forks":2,"calls":2,"tokens":{"input":1,"output":1,"cache_read":0,"cache_write":0},"cost":0.6}}`
	unpriced := strings.Replace(busy("u", "codex", parent, at("12:00"), at("12:30"), 1).line(), `}}`, `},"judge":{"forks":1,"calls":0,"cost":null}}`, 1)
	path := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(path, []byte(judged+"\n"+unpriced+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := query(t, Options{Sessions: []string{path}, Repos: []string{alpha.dir, beta.dir}})
	ra, rb := record(t, rep, "o", "alpha"), record(t, rep, "o", "beta")
	if ra.Cost != 1.2 || ra.JudgeCost != 0.2 || rb.Cost != 2.4 || rb.JudgeCost != 0.4 {
		t.Errorf("records alpha %+v beta %+v: want $3.60 split 1:2, $0.60 of it the judge's", ra, rb)
	}
	if rep.Summary.ByHarness["claude-code"].Cost != 3.6 || rep.Summary.UnlinkedCost != 1 {
		t.Errorf("summary %+v", rep.Summary)
	}
	if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "session u: judge.cost is null") }) {
		t.Errorf("warnings %q lack the null judge cost", rep.Warnings)
	}
}
