package impact

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain isolates git from the machine: no global or system config (the
// user's user.email would make every author local), no inherited identity.
// git is required: the rules are tested on real repositories, never skipped.
func TestMain(m *testing.M) {
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Fprintln(os.Stderr, "impact tests need the git binary:", err)
		os.Exit(1)
	}
	home, err := os.MkdirTemp("", "impact-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
		"GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "EMAIL"} {
		os.Unsetenv(k)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", home)
	os.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("LC_ALL", "C") // git messages in English, as the tests read them
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// day is the test calendar day; now is the injected clock, the next midnight.
var (
	day = time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC)
	now = day.Add(24 * time.Hour)
)

// at returns the time hh:mm on the test day.
func at(hhmm string) time.Time {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		panic(err)
	}
	return day.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute)
}

const (
	me     = "me@example.com"
	other  = "other@example.com"
	claude = "\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>"
	codex  = "\n\nCo-authored-by: Codex <noreply@openai.com>"
)

// testRepo is a real git repository in a temp dir.
type testRepo struct {
	t   testing.TB
	dir string
	n   int // files written so far, for unique names
}

// newRepo creates parent/name on branch with user.email = me (local scope).
func newRepo(t testing.TB, parent, name, branch string) *testRepo {
	t.Helper()
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &testRepo{t: t, dir: dir}
	r.git(nil, "init", "-q", "-b", branch)
	r.git(nil, "config", "user.email", me)
	r.git(nil, "config", "user.name", "Me")
	r.git(nil, "config", "commit.gpgsign", "false")
	return r
}

func (r *testRepo) git(env []string, args ...string) string {
	r.t.Helper()
	return runGit(r.t, r.dir, env, args...)
}

func runGit(t testing.TB, dir string, env []string, args ...string) string {
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

// spec is one commit to make.
type spec struct {
	at        time.Time // author date
	committed time.Time // committer date; zero → at
	email     string    // author email; "" → me
	msg       string
	lines     int               // lines of a new text file
	files     map[string][]byte // extra files, written as is
}

// commit makes the commit and returns its sha.
func (r *testRepo) commit(s spec) string {
	r.t.Helper()
	if s.lines > 0 {
		r.n++
		var b strings.Builder
		for i := 0; i < s.lines; i++ {
			fmt.Fprintf(&b, "line %d of file %d\n", i, r.n)
		}
		r.write(fmt.Sprintf("f%03d.txt", r.n), []byte(b.String()))
	}
	for name, data := range s.files {
		r.write(name, data)
	}
	r.git(nil, "add", "-A")
	r.git(commitEnv(s), "commit", "-q", "--allow-empty", "-m", s.msg)
	return r.git(nil, "rev-parse", "HEAD")
}

func commitEnv(s spec) []string {
	email := s.email
	if email == "" {
		email = me
	}
	committed := s.committed
	if committed.IsZero() {
		committed = s.at
	}
	return []string{
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=" + email, "GIT_AUTHOR_DATE=" + s.at.Format(time.RFC3339),
		"GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=" + email, "GIT_COMMITTER_DATE=" + committed.Format(time.RFC3339),
	}
}

// revert runs `git revert` of sha at the given time.
func (r *testRepo) revert(sha string, when time.Time) string {
	r.t.Helper()
	r.git(commitEnv(spec{at: when}), "revert", "--no-edit", sha)
	return r.git(nil, "rev-parse", "HEAD")
}

func (r *testRepo) write(name string, data []byte) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// sessionJSON is one sessions JSONL line.
type sessionJSON struct {
	ID      string
	Harness string
	Repo    any // string path or nil
	Project any
	Start   time.Time
	End     time.Time
	Calls   int
	Tools   map[string]int
	Cost    float64
}

func (s sessionJSON) line() string {
	j := func(v any) string {
		switch v := v.(type) {
		case nil:
			return "null"
		case string:
			return fmt.Sprintf("%q", v)
		}
		panic("bad value")
	}
	tools := "{"
	first := true
	for k, v := range s.Tools {
		if !first {
			tools += ","
		}
		first = false
		tools += fmt.Sprintf("%q:%d", k, v)
	}
	tools += "}"
	return fmt.Sprintf(`{"session_id":%q,"harness":%q,"repo":%s,"project":%s,"start":%q,"end":%q,"calls":%d,"tools":%s,"cost":{"total":%v}}`,
		s.ID, s.Harness, j(s.Repo), j(s.Project), s.Start.Format(time.RFC3339), s.End.Format(time.RFC3339), s.Calls, tools, s.Cost)
}

// writeSessions writes a sessions file and returns its path.
func writeSessions(t testing.TB, ss ...sessionJSON) string {
	t.Helper()
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.line() + "\n")
	}
	p := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// busy is a session that did real work: ≥ MIN_CALLS calls and a write tool.
func busy(id, harness string, repo any, start, end time.Time, cost float64) sessionJSON {
	return sessionJSON{ID: id, Harness: harness, Repo: repo, Start: start, End: end, Calls: 40,
		Tools: map[string]int{"Edit": 3, "Bash": 2}, Cost: cost}
}

func query(t testing.TB, opt Options) *Report {
	t.Helper()
	if opt.Now.IsZero() {
		opt.Now = now
	}
	rep, err := Query(t.Context(), opt)
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	return rep
}

// record finds the record of session in repo label, or fails.
func record(t testing.TB, rep *Report, session, label string) Record {
	t.Helper()
	for _, r := range rep.Records {
		if r.SessionID == session && r.RepoLabel == label {
			return r
		}
	}
	t.Fatalf("no record for session %s in %s; records: %+v", session, label, rep.Records)
	return Record{}
}

func hasRecord(rep *Report, session string) bool {
	for _, r := range rep.Records {
		if r.SessionID == session {
			return true
		}
	}
	return false
}

func f(x float64) *float64 { return &x }

func eqP(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func showP(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
