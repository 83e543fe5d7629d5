package impact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// git runs the git binary. Every call names its repository in errors, and
// git's own stderr (trimmed) is kept because it says what went wrong.
type git struct {
	bin string
}

// stderrLimit bounds the stderr kept for an error message.
const stderrLimit = 2048

// gitError is a failed git command with git's explanation.
type gitError struct {
	args   []string
	err    error
	stderr string
}

func (e *gitError) Error() string {
	// The subcommand is enough to place the failure; full argument lists
	// bury git's own explanation.
	msg := fmt.Sprintf("git %s: %v", e.args[0], e.err)
	if e.stderr != "" {
		msg += ": " + e.stderr
	}
	return msg
}

func (e *gitError) Unwrap() error { return e.err }

// exitCode returns git's exit status, or -1 when it did not exit normally.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// gitEnv is the environment of every git command. GIT_FLUSH=0: on a pipe
// git otherwise flushes after every commit, one write (and one wake-up of
// the reader) per record; buffered output cuts git's system time in half.
func gitEnv() []string {
	return append(os.Environ(), "GIT_FLUSH=0")
}

func (g git) command(ctx context.Context, dir string, args []string) (*exec.Cmd, *limitedBuffer) {
	cmd := exec.CommandContext(ctx, g.bin, args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	stderr := &limitedBuffer{max: stderrLimit}
	cmd.Stderr = stderr
	return cmd, stderr
}

// output runs a git command whose output is small (config, refs).
func (g git) output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd, stderr := g.command(ctx, dir, args)
	out, err := cmd.Output()
	if err != nil {
		return out, &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return out, nil
}

// stream runs a git command and hands its stdout to read while git runs, so
// the output is never held whole. If read fails, git is stopped.
func (g git) stream(ctx context.Context, dir string, args []string, read func(io.Reader) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd, stderr := g.command(ctx, dir, args)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return &gitError{args: args, err: err}
	}
	if err := cmd.Start(); err != nil {
		return &gitError{args: args, err: err}
	}
	rerr := read(stdout)
	if rerr != nil {
		cancel()
		// Drain so git is not blocked writing to a full pipe before it dies.
		_, _ = io.Copy(io.Discard, stdout)
	}
	werr := cmd.Wait()
	if rerr != nil {
		return rerr
	}
	if werr != nil {
		return &gitError{args: args, err: werr, stderr: stderr.String()}
	}
	return nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	return strings.Join(strings.Fields(b.buf.String()), " ")
}
