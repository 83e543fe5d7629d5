package claudeapi

import (
	"bytes"
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

// runTimeout bounds one run of the real client; a scripted turn takes a few seconds.
const runTimeout = 2 * time.Minute

// waitDelay is how long Run waits, once the client has exited, for the processes it started to let go
// of its stdout and stderr: a daemon a hook starts must not inherit them, or Run would wait for it.
var waitDelay = 5 * time.Second

// Claude runs the real client offline: inside Netns, against a Server listening there, with HOME a
// temporary directory and Dir the project it works in.
type Claude struct {
	Path  string   // the claude binary (Install)
	Dir   string   // working directory of every run: the project
	Home  string   // HOME of every run: ~/.claude and the transcripts live here
	Env   []string // the environment of every run (Env(Home, Server.URL)); append to it
	Netns *Netns
}

// Offline sets up the real client against script: a network namespace (Isolate), a Server inside it,
// Claude Code installed (Install), and a Claude with a temporary HOME and project directory. It skips
// the test when the namespace or the client is not available.
func Offline(t testing.TB, script Script) (*Server, *Claude) {
	t.Helper()
	ns := Isolate(t)
	path := Install(t)
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Serve(t, ln, script)
	home := t.TempDir()
	return srv, &Claude{Path: path, Dir: t.TempDir(), Home: home, Env: Env(home, srv.URL), Netns: ns}
}

// Run runs claude with args and stdin (none when empty) in the namespace and waits, up to two
// minutes. It returns what the client printed; err is the exit or start error with stderr's tail.
func (c *Claude) Run(stdin string, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = waitDelay
	err = c.Netns.Run(cmd)
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("no answer in %s", runTimeout)
	case errors.Is(err, exec.ErrWaitDelay):
		err = fmt.Errorf("a process it started still holds its stdout or stderr %s after it exited "+
			"(a detached process must not inherit them)", waitDelay)
	}
	if err != nil {
		err = fmt.Errorf("claude %s: %w: %s", strings.Join(args, " "), err, tail(errOut.Bytes(), 2000))
	}
	return out.Bytes(), errOut.Bytes(), err
}

// Print runs `claude -p PROMPT --output-format json` plus args and returns its result. A run that
// ends in a result object is returned even when the client exits 1 (an API error, too many turns:
// IsError and Subtype say so); a run with no parsable result fails the test.
func (c *Claude) Print(t testing.TB, prompt string, args ...string) Result {
	t.Helper()
	out, _, runErr := c.Run("", append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
	res, err := ParseResult(out)
	if err != nil {
		if runErr != nil {
			t.Fatal(runErr)
		}
		t.Fatal(err)
	}
	if runErr != nil && !res.IsError {
		t.Fatalf("%v, though its result says no error", runErr)
	}
	return res
}

// Transcript is the path of a session's transcript under home/.claude/projects, found by its id (the
// project folder's name is derived from the working directory, and hashed when long).
func Transcript(home, sessionID string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", sessionID+".jsonl"))
	if err != nil {
		return "", fmt.Errorf("find transcript of %s: %w", sessionID, err)
	}
	if len(matches) != 1 {
		return "", fmt.Errorf("find transcript of %s under %s: %d files match", sessionID, home, len(matches))
	}
	if _, err := os.Stat(matches[0]); err != nil {
		return "", fmt.Errorf("transcript of %s: %w", sessionID, err)
	}
	return matches[0], nil
}
