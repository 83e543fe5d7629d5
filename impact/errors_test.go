package impact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBadRepos: a path that is not a git repo, or does not exist, is a
// warning naming it; the good repo is still reported.
func TestBadRepos(t *testing.T) {
	parent := t.TempDir()
	good := newRepo(t, parent, "good", "main")
	good.commit(spec{at: at("10:10"), msg: "ok" + claude, lines: 1})
	plain := filepath.Join(parent, "plain")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(parent, "missing")
	sessions := writeSessions(t,
		busy("g", "claude-code", good.dir, at("10:00"), at("11:00"), 1),
		busy("p", "claude-code", plain, at("10:00"), at("11:00"), 2))
	for _, tc := range []struct {
		name  string
		repos []string
		want  []string // each must appear in some warning
	}{
		{"explicit", []string{plain, good.dir, missing}, []string{"repo " + plain + ": git for-each-ref: exit status 128: fatal: not a git repository", "repo " + missing + ":"}},
		{"from sessions", nil, []string{"repo " + plain + ":", "not a git repository"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := query(t, Options{Sessions: []string{sessions}, Repos: tc.repos})
			all := strings.Join(rep.Warnings, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q:\n%s", w, all)
				}
			}
			if rec := record(t, rep, "g", "good"); len(rec.Commits) != 1 {
				t.Errorf("good repo record = %+v", rec)
			}
			if rep.Summary.UnlinkedCost != 2 {
				t.Errorf("unlinked = %v, want 2 (the session in the bad repo)", rep.Summary.UnlinkedCost)
			}
		})
	}
}

// TestMissingGit: a git binary that does not exist fails the query with a
// message naming it.
func TestMissingGit(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "no-such-git")
	_, err := Query(t.Context(), Options{Sessions: []string{writeSessions(t)}, Git: bin, Now: now})
	if err == nil || !strings.Contains(err.Error(), bin) {
		t.Fatalf("err = %v, want one naming %s", err, bin)
	}
}

// TestUnreadableDecisions: a decisions file that cannot be read is a
// warning naming it; records stay pending and everything else is reported.
func TestUnreadableDecisions(t *testing.T) {
	r, _ := exampleRepo(t)
	dir := t.TempDir() // a directory: opens, but cannot be read as a file
	rep := query(t, Options{Sessions: []string{exampleSessions(t, r.dir)}, Decisions: dir})
	if len(rep.Warnings) != 2 || !strings.Contains(rep.Warnings[0], "decisions "+dir) || !strings.Contains(rep.Warnings[1], c3Unheld) {
		t.Errorf("warnings = %q", rep.Warnings)
	}
	if b := record(t, rep, "b", "demo"); b.LinkP != nil {
		t.Errorf("b = %+v, want pending", b)
	}
	if rep.Summary.Linked != 1 || rep.Summary.ByRepo["demo"].Cost != 2 {
		t.Errorf("summary = %+v", rep.Summary)
	}
}

// TestMissingDecisionsFile: before the first decision the file does not
// exist; that is no decision, not a warning.
func TestMissingDecisionsFile(t *testing.T) {
	r, _ := exampleRepo(t)
	rep := query(t, Options{Sessions: []string{exampleSessions(t, r.dir)},
		Decisions: filepath.Join(t.TempDir(), "decisions.jsonl")})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], c3Unheld) || rep.Summary.Pending != 1 {
		t.Errorf("warnings %q pending %d", rep.Warnings, rep.Summary.Pending)
	}
}

// TestBadSessionLines: each bad line is reported with file and line number
// and skipped; the rest is used.
func TestBadSessionLines(t *testing.T) {
	r, _ := exampleRepo(t)
	good, err := os.ReadFile(exampleSessions(t, r.dir))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	bad := []string{
		"{not json\n",
		`{"harness":"codex","start":"2025-06-02T10:00:00Z","end":"2025-06-02T11:00:00Z"}` + "\n",
		`{"session_id":"x","start":"yesterday","end":"2025-06-02T11:00:00Z"}` + "\n",
		`{"session_id":"y","start":"2025-06-02T12:00:00Z","end":"2025-06-02T11:00:00Z"}` + "\n",
		`{"session_id":"z","start":"2025-06-02T10:00:00Z","end":"2025-06-02T11:00:00Z","cost":{"total":-1}}` + "\n",
		"\n",
		lines[0], // a again: duplicate
	}
	content := lines[0] + strings.Join(bad, "") + lines[1] + lines[2]
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "absent.jsonl")
	rep := query(t, Options{Sessions: []string{p, missing}})
	want := []string{
		p + ":2: bad JSON",
		p + ":3: missing session_id",
		p + ":4: session x: bad start",
		p + ":5: session y: end",
		p + ":6: session z: negative cost",
		`duplicate session_id "a"`,
		"sessions " + missing + ":",
		c3Unheld,
	}
	if len(rep.Warnings) != len(want) {
		t.Errorf("warnings = %q", rep.Warnings)
	}
	for i, w := range want {
		if i < len(rep.Warnings) && !strings.Contains(rep.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, rep.Warnings[i], w)
		}
	}
	if rep.Summary.SessionsTotal != 3 || rep.Summary.Linked != 1 {
		t.Errorf("summary = %+v", rep.Summary)
	}
}

// TestDaysFilter: sessions whose end is older than --days, or after now,
// take no part.
func TestDaysFilter(t *testing.T) {
	r, _ := exampleRepo(t)
	sessions := exampleSessions(t, r.dir)
	for _, tc := range []struct {
		name  string
		opt   Options
		total int
	}{
		{"all within 30 days", Options{Now: now.Add(29 * 24 * time.Hour)}, 3},
		{"a and b older than 1 day", Options{Now: at("20:10").Add(24*time.Hour - time.Minute), Days: 1}, 1},
		{"c after now", Options{Now: at("19:00")}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Sessions = []string{sessions}
			if got := query(t, tc.opt).Summary.SessionsTotal; got != tc.total {
				t.Errorf("sessions_total = %d, want %d", got, tc.total)
			}
		})
	}
	if _, err := Query(t.Context(), Options{Days: -1}); err == nil {
		t.Error("negative days accepted")
	}
	// Every session older than the window: the report says why it is empty.
	rep := query(t, Options{Sessions: []string{sessions}, Now: now.Add(90 * 24 * time.Hour)})
	if rep.Summary.SessionsTotal != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "none of the 3 sessions read ended within the 30 days") {
		t.Errorf("all sessions too old: total %d, warnings %q", rep.Summary.SessionsTotal, rep.Warnings)
	}
}

// TestEmptyRepo: a repository without commits (unborn HEAD) is no error.
func TestEmptyRepo(t *testing.T) {
	r := newRepo(t, t.TempDir(), "empty", "main")
	rep := query(t, Options{Sessions: []string{writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))}})
	if len(rep.Warnings) != 0 || len(rep.Records) != 0 || rep.Summary.UnlinkedCost != 1 {
		t.Errorf("report = %+v", rep)
	}
}

// TestUnbornHead: with no default branch and HEAD on an unborn branch,
// reachability is unknown: a warning, and the commits still link.
func TestUnbornHead(t *testing.T) {
	r := newRepo(t, t.TempDir(), "orphan", "dev")
	sha := r.commit(spec{at: at("10:10"), msg: "on dev" + claude, lines: 1})
	r.git(nil, "checkout", "-q", "--orphan", "fresh")
	rep := query(t, Options{Sessions: []string{writeSessions(t, busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1))}})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "reachability from HEAD unknown") {
		t.Errorf("warnings = %q", rep.Warnings)
	}
	if rec := record(t, rep, "a", "orphan"); len(rec.Commits) != 1 || rec.Commits[0] != sha || rec.Details[0].Reachable {
		t.Errorf("record = %+v", rec)
	}
}

// TestCancelled: a cancelled context stops the scan with an error, not a
// report built from half the repos.
func TestCancelled(t *testing.T) {
	r, _ := exampleRepo(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Query(ctx, Options{Sessions: []string{exampleSessions(t, r.dir)}, Now: now}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestUnheldTrailerCommits: trailer commits after every session's window (a newcomer's repo whose
// agent logs are elsewhere) are said, the first maxOrphanWarnings by sha and the rest counted.
func TestUnheldTrailerCommits(t *testing.T) {
	r := newRepo(t, t.TempDir(), "demo", "main")
	var shas []string
	for i := range maxOrphanWarnings + 2 {
		shas = append(shas, r.commit(spec{at: at("21:00").Add(time.Duration(i) * time.Minute), msg: fmt.Sprintf("late %d", i) + claude, lines: 1}))
	}
	rep := query(t, Options{Sessions: []string{exampleSessions(t, r.dir)}})
	if len(rep.Records) != 0 {
		t.Errorf("records = %+v, want none linked", rep.Records)
	}
	if len(rep.Warnings) != maxOrphanWarnings+1 {
		t.Fatalf("warnings = %q, want %d", rep.Warnings, maxOrphanWarnings+1)
	}
	// git log lists the newest first.
	if w := rep.Warnings[0]; !strings.Contains(w, "commit "+shas[len(shas)-1][:12]) || !strings.Contains(w, c3Unheld) {
		t.Errorf("first warning = %q", w)
	}
	if w := rep.Warnings[maxOrphanWarnings]; !strings.HasPrefix(w, "2 more trailer commits") {
		t.Errorf("last warning = %q", w)
	}
}

// TestRelativeGit: a git binary named relative to the working directory is found there, though git
// then runs in each repo's directory.
func TestRelativeGit(t *testing.T) {
	parent := t.TempDir()
	r := newRepo(t, parent, "r", "main")
	r.commit(spec{at: at("10:10"), msg: "ok" + claude, lines: 1})
	sessions := writeSessions(t, busy("s", "claude-code", r.dir, at("10:00"), at("11:00"), 1))
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mygit"), []byte("#!/bin/sh\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(bin)
	rep := query(t, Options{Sessions: []string{sessions}, Repos: []string{r.dir}, Git: "./mygit"})
	if rec := record(t, rep, "s", "r"); rec.CommitsKept != 1 || len(rep.Warnings) != 0 {
		t.Fatalf("record %+v, warnings %v", rec, rep.Warnings)
	}
}
