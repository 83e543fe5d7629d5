package impact

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if fn takes longer than d (a FIFO used to block the open for good).
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %s", d)
	}
}

// TestNothingReadableIsAnError: when no sessions file could be read the query used to succeed with an
// empty report, which reads like "no agent work". It fails, naming every path. A FIFO and a device are
// refused at once rather than read.
func TestNothingReadableIsAnError(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sessions.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	for _, paths := range [][]string{{missing}, {fifo}, {"/dev/zero"}, {missing, fifo, "/dev/zero"}} {
		t.Run(strings.Join(paths, ","), func(t *testing.T) {
			within(t, 3*time.Second, func() {
				_, err := Query(t.Context(), Options{Sessions: paths, Now: now})
				if err == nil {
					t.Fatal("Query succeeded with nothing readable")
				}
				for _, p := range paths {
					if !strings.Contains(err.Error(), p) {
						t.Errorf("error %q does not name %s", err, p)
					}
				}
			})
		})
	}
}

// TestLongLinesAreSkipped: a line had no length cap, so a file of zeros with no newline grew the process
// by gigabytes. A line past maxLine is skipped with a warning, and the lines after it are read.
func TestLongLinesAreSkipped(t *testing.T) {
	r := newRepo(t, t.TempDir(), "demo", "main")
	r.commit(spec{at: at("10:30"), msg: "c1" + claude, lines: 10})
	sessions := filepath.Join(t.TempDir(), "sessions.jsonl")
	text := busy("a", "claude-code", r.dir, at("10:00"), at("11:00"), 1).line() + "\n" +
		strings.Repeat("\x00", 3*maxLine) + "\n" +
		busy("b", "claude-code", r.dir, at("12:00"), at("13:00"), 2).line() + "\n"
	if err := os.WriteFile(sessions, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	decisions := filepath.Join(t.TempDir(), "decisions.jsonl")
	if err := os.WriteFile(decisions, []byte(strings.Repeat("z", 2*maxLine)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := query(t, Options{Sessions: []string{sessions}, Decisions: decisions})
	all := strings.Join(rep.Warnings, "\n")
	for _, want := range []string{sessions + ":2: line longer than 1048576 bytes, skipped", decisions + ":1: line longer than"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if rep.Summary.SessionsTotal != 2 {
		t.Errorf("sessions read = %d, want 2", rep.Summary.SessionsTotal)
	}
}

// TestFIFODecisionsDoNotHang: a FIFO given as the decisions file is a warning, not a hang.
func TestFIFODecisionsDoNotHang(t *testing.T) {
	r, _ := exampleRepo(t)
	fifo := filepath.Join(t.TempDir(), "decisions.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	within(t, 3*time.Second, func() {
		rep := query(t, Options{Sessions: []string{exampleSessions(t, r.dir)}, Decisions: fifo})
		if !strings.Contains(strings.Join(rep.Warnings, "\n"), "decisions "+fifo) {
			t.Errorf("warnings = %q", rep.Warnings)
		}
	})
}
