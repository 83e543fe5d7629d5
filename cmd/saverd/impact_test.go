package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/impact"
)

const impactNow = "2025-06-03T00:00:00Z"

// impactIsolate keeps the machine's git configuration out of the test (a
// global user.email would make every author local). It uses t.Setenv, so
// the calling test must not be parallel.
func impactIsolate(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("LC_ALL", "C")
}

func impactGit(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// impactFixture builds repo "demo" with a Claude trailer commit at 10:30
// (+10 lines) and a local commit without trailer at 14:10 (+7), and a
// sessions file: a (claude-code, 10:00–11:00, $2) and b (codex,
// 14:00–14:30, $1). It returns the sessions file.
func impactFixture(t *testing.T) (sessions, repo string) {
	t.Helper()
	impactIsolate(t)
	repo = filepath.Join(t.TempDir(), "demo")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	impactGit(t, repo, nil, "init", "-q", "-b", "main")
	impactGit(t, repo, nil, "config", "user.email", "me@example.com")
	commit := func(when, msg string, lines int) {
		name, _, _ := strings.Cut(msg, "\n")
		var b strings.Builder
		for i := 0; i < lines; i++ {
			b.WriteString(name + " line\n")
		}
		if err := os.WriteFile(filepath.Join(repo, name+".txt"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		impactGit(t, repo, nil, "add", "-A")
		impactGit(t, repo, []string{"GIT_AUTHOR_NAME=Me", "GIT_AUTHOR_EMAIL=me@example.com", "GIT_AUTHOR_DATE=" + when,
			"GIT_COMMITTER_NAME=Me", "GIT_COMMITTER_EMAIL=me@example.com", "GIT_COMMITTER_DATE=" + when},
			"commit", "-q", "-m", msg)
	}
	commit("2025-06-02T10:30:00Z", "c1\n\nCo-Authored-By: Claude <noreply@anthropic.com>", 10)
	commit("2025-06-02T14:10:00Z", "c4", 7)
	lines := `{"session_id":"a","harness":"claude-code","repo":"` + repo + `","project":null,"start":"2025-06-02T10:00:00Z","end":"2025-06-02T11:00:00Z","calls":40,"tools":{"Edit":3},"cost":{"total":2}}
{"session_id":"b","harness":"codex","repo":"` + repo + `","project":null,"start":"2025-06-02T14:00:00Z","end":"2025-06-02T14:30:00Z","calls":12,"tools":{"shell":3},"cost":{"total":1}}
`
	sessions = filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(sessions, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	return sessions, repo
}

func runImpactTest(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(t.Context(), append([]string{"impact"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestImpactJSONAndDecide(t *testing.T) {
	sessions, _ := impactFixture(t)
	decisions := filepath.Join(t.TempDir(), "decisions.jsonl")
	common := []string{"--sessions", sessions, "--decisions", decisions, "--now", impactNow}

	code, out, errOut := runImpactTest(t, common...) // stdout is no terminal: JSON
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep impact.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not a report: %v\n%s", err, out)
	}
	if len(rep.Records) != 2 || rep.Summary.Linked != 1 || rep.Summary.UnlinkedCost != 1 || rep.Warnings == nil {
		t.Errorf("report = %+v", rep)
	}
	for _, key := range []string{`"records"`, `"summary"`, `"warnings": []`, `"link_p": null`, `"cost_per_100_lines": 20`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}

	code, out, errOut = runImpactTest(t, append([]string{"pending"}, common...)...)
	var pending struct {
		Pending []impact.PendingSubject `json:"pending"`
	}
	if err := json.Unmarshal([]byte(out), &pending); code != 0 || err != nil || len(pending.Pending) != 1 {
		t.Fatalf("pending: exit %d, %v, %s %s", code, err, out, errOut)
	}
	subject := pending.Pending[0].Subject

	// Flags after the subject, as the usage shows them.
	code, _, errOut = runImpactTest(t, "decide", subject, "--yes", "0.8", "--decisions", decisions, "--now", impactNow)
	if code != 0 {
		t.Fatalf("decide: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(decisions)
	if want := `{"point":"commit_link","subject":"` + subject + `","probabilities":{"yes":0.8,"no":0.2},"ts":"` + impactNow + `"}` + "\n"; err != nil || string(b) != want {
		t.Errorf("decisions file = %q, %v; want %q", b, err, want)
	}

	code, out, _ = runImpactTest(t, common...)
	rep = impact.Report{}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Summary.Linked != 2 || rep.Summary.UnlinkedCost != 0 {
		t.Errorf("after decide: exit %d, %v, summary %+v", code, err, rep.Summary)
	}
}

func TestImpactTable(t *testing.T) {
	sessions, _ := impactFixture(t)
	code, out, errOut := runImpactTest(t, "--sessions", sessions, "--now", impactNow, "--format", "table")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"REPO", "demo  $2.00", "HARNESS", "claude-code", "$20.00", "sessions: 2, linked: 1, pending: 1, unlinked cost: $1.00", "SESSION  HARNESS", "trailer           $2.00  ", "+10 -0, 1 file", "window (pending)  $1.00"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runImpactTest(t, "pending", "--sessions", sessions, "--now", impactNow, "--format", "table")
	if code != 0 || !strings.Contains(out, "b:") || !strings.Contains(out, "+7 -0, 1 file") {
		t.Errorf("pending table: exit %d\n%s", code, out)
	}
}

// TestImpactWarnings: a path that is not a repository is a warning on
// stderr and in the JSON; the exit code stays 0 and the good repo is used.
func TestImpactWarnings(t *testing.T) {
	sessions, repo := impactFixture(t)
	plain := t.TempDir()
	code, out, errOut := runImpactTest(t, "--sessions", sessions, "--now", impactNow, "--repo", plain, "--repo", repo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "saverd impact: warning: repo "+plain) || !strings.Contains(errOut, "not a git repository") {
		t.Errorf("stderr = %q", errOut)
	}
	var rep impact.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Warnings) != 1 || rep.Summary.Linked != 1 {
		t.Errorf("report: %v, warnings %q, summary %+v", err, rep.Warnings, rep.Summary)
	}
	// The table says it too: its figures leave out what the warnings name.
	_, out, _ = runImpactTest(t, "--sessions", sessions, "--now", impactNow, "--repo", plain, "--repo", repo, "--format", "table")
	if !strings.Contains(out, "1 warning: what they name (a repo, a file, a line, a price) is left out of these figures") {
		t.Errorf("table:\n%s", out)
	}
}

func TestImpactExitCodes(t *testing.T) {
	sessions, _ := impactFixture(t)
	missingGit := filepath.Join(t.TempDir(), "no-git")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad format", []string{"--sessions", sessions, "--format", "xml"}, 2, "--format"},
		{"bad now", []string{"--sessions", sessions, "--now", "yesterday"}, 2, "--now"},
		{"negative days", []string{"--sessions", sessions, "--days", "-1"}, 2, "--days"},
		{"zero days", []string{"--sessions", sessions, "--days", "0"}, 2, "--days: want ≥ 1"},
		{"unknown flag", []string{"--sessions", sessions, "--bogus"}, 2, "saverd impact: unknown flag --bogus"},
		{"stray argument", []string{"--sessions", sessions, "extra"}, 2, `unexpected argument "extra"`},
		{"decide without subject", []string{"decide", "--yes", "0.5", "--decisions", "d"}, 2, "exactly one SUBJECT"},
		{"decide without yes", []string{"decide", "s:abcdef01", "--decisions", "d"}, 2, "--yes"},
		{"decide without file", []string{"decide", "s:abcdef01", "--yes", "0.5"}, 2, "--decisions"},
		{"decide p out of range", []string{"decide", "s:abcdef01", "--yes", "1.5", "--decisions", "d"}, 2, "[0, 1]"},
		{"decide bad subject", []string{"decide", "nonsense", "--yes", "0.5", "--decisions", filepath.Join(t.TempDir(), "d")}, 2, "not <session_id>"},
		{"decide unwritable", []string{"decide", "s:abcdef01", "--yes", "0.5", "--decisions", filepath.Join(t.TempDir(), "no", "d")}, 1, "no such file"},
		{"missing git", []string{"--sessions", sessions, "--git", missingGit}, 1, missingGit},
		{"help", []string{"-h"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runImpactTest(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d with %q", code, errOut, tc.code, tc.stderr)
			}
		})
	}
}

// TestImpactNowDefault: without --now the clock is used; the fixture's
// sessions are then older than --days and nothing links.
func TestImpactNowDefault(t *testing.T) {
	sessions, _ := impactFixture(t)
	if time.Now().Before(time.Date(2025, 6, 4, 0, 0, 0, 0, time.UTC)) {
		t.Fatal("the clock is set before the fixture's day")
	}
	code, out, _ := runImpactTest(t, "--sessions", sessions, "--days", "1")
	var rep impact.Report
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Summary.SessionsTotal != 0 {
		t.Errorf("exit %d, %v, summary %+v", code, err, rep.Summary)
	}
}

// TestImpactFromAgentLogs: with no --sessions, the sessions come from the agents' own logs. The Claude Code
// fixture session in calc (19:33:49–19:33:53) takes the trailer commit made during it; a Codex trailer
// commit that no Codex session's window holds is a warning that says so.
func TestImpactFromAgentLogs(t *testing.T) {
	impactIsolate(t)
	repo := filepath.Join(t.TempDir(), "calc")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	impactGit(t, repo, nil, "init", "-q", "-b", "main")
	impactGit(t, repo, nil, "config", "user.email", "me@example.com")
	for i, c := range []struct{ when, msg string }{
		{"2026-12-01T19:34:00Z", "fix\n\nCo-Authored-By: Claude <noreply@anthropic.com>"},
		{"2026-12-01T19:36:00Z", "more\n\nCo-authored-by: Codex <noreply@openai.com>"},
	} {
		if err := os.WriteFile(filepath.Join(repo, "f"+string(rune('0'+i))), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		impactGit(t, repo, nil, "add", "-A")
		impactGit(t, repo, []string{"GIT_AUTHOR_NAME=Me", "GIT_AUTHOR_EMAIL=me@example.com", "GIT_AUTHOR_DATE=" + c.when,
			"GIT_COMMITTER_NAME=Me", "GIT_COMMITTER_EMAIL=me@example.com", "GIT_COMMITTER_DATE=" + c.when}, "commit", "-q", "-m", c.msg)
	}
	code, out, errOut := runImpactTest(t, "--claude-dir", fixtureClaude, "--codex-dir", fixtureCodex, "--repo", repo,
		"--now", "2026-12-02T00:00:00Z", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep impact.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Records) != 1 || rep.Records[0].SessionID != "c30d052a-2836-49f8-a652-5038e728a894" || rep.Records[0].Link != "trailer" {
		t.Fatalf("records = %+v, want the calc session's trailer link", rep.Records)
	}
	if rep.Summary.SessionsTotal != 7 || rep.Records[0].Cost != 0.091 {
		t.Errorf("summary %+v, record cost %v; want 7 sessions and the session's $0.091", rep.Summary, rep.Records[0].Cost)
	}
	if !strings.Contains(errOut, "carries a codex trailer, but no codex session's window holds it") {
		t.Errorf("stderr lacks the orphan trailer warning:\n%s", errOut)
	}
}

func TestImpactUnknownHarness(t *testing.T) {
	sessions, _ := impactFixture(t)
	typo := filepath.Join(t.TempDir(), "typo.jsonl")
	data, err := os.ReadFile(sessions)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(typo, bytes.Replace(data, []byte(`"claude-code"`), []byte(`"claude"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runImpactTest(t, "--sessions", typo, "--now", impactNow)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, `session a: harness "claude" is not a known harness id (aider, amp, claude-code, codex,`) {
		t.Errorf("stderr lacks the harness warning:\n%s", errOut)
	}
	if !strings.Contains(errOut, "carries a claude-code trailer, but no claude-code session's window holds it") {
		t.Errorf("stderr lacks the orphan warning:\n%s", errOut)
	}
	var rep impact.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Summary.Linked != 0 {
		t.Errorf("report %v, summary %+v: the typo must not link", err, rep.Summary)
	}
}
