package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
	"golang.org/x/sys/unix"
)

// servingLine is what bare saverd says on stderr when a person, not a host, is at its stdin.
const servingLine = "saverd: serving JSON-RPC on stdin (saverd --help lists the commands)"

// TestBareSaverdOnATerminalSaysWhatItWaitsFor: bare saverd with a terminal for stdin says in one line
// that it serves JSON-RPC there; with a pipe or /dev/null (a host, a script) it says nothing.
func TestBareSaverdOnATerminalSaysWhatItWaitsFor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stdin func(t *testing.T) *os.File
		want  bool
	}{
		{"a terminal", ptySlave, true},
		{"a pipe", func(t *testing.T) *os.File {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close(); w.Close() })
			return r
		}, false},
		{"/dev/null", func(t *testing.T) *os.File {
			f, err := os.Open(os.DevNull)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(binPath)
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"),
				"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "GORACE=atexit_sleep_ms=0")
			var stderr testfake.LockedBuffer
			cmd.Stdin, cmd.Stderr = tc.stdin(t), &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			// The line comes before the first read; a second is far more than the start takes.
			deadline := time.Now().Add(5 * time.Second)
			if !tc.want {
				deadline = time.Now().Add(time.Second)
			}
			for time.Now().Before(deadline) && !strings.Contains(stderr.String(), servingLine) {
				time.Sleep(20 * time.Millisecond)
			}
			if got := strings.Contains(stderr.String(), servingLine); got != tc.want {
				t.Errorf("stdin %s: said the serving line = %v, want %v; stderr %q", tc.name, got, tc.want, stderr.String())
			}
		})
	}
}

// ptySlave is the terminal end of a new pseudo-terminal; its controller stays open for the test.
func ptySlave(t *testing.T) *os.File {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pseudo-terminal's number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal's terminal end: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
