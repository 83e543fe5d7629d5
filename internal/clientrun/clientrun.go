// Package clientrun runs a real agent client (Gemini CLI, OpenCode, Qwen Code) offline for tests: the
// pinned npm package installed once into ~/.cache/saverd-clients (internal/npmclient), then each run
// started inside the test's network namespace (claudeapi.Netns: only loopback, where the test's scripted
// API listens), in a temporary HOME, with only the environment the test gives it, bounded in time.
package clientrun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/npmclient"
)

// Install returns the client's binary, installing spec (`@scope/name@version`) with npm into
// ~/.cache/saverd-clients/<dir> when it is missing; find locates the binary in an install. It skips the
// test, saying why, when npm cannot install it, except in CI (CI set), where .ci/run installs it first
// and its absence is a failure.
func Install(t testing.TB, dir, spec string, find func(dir string) string) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatalf("%s: no home directory to install it under: %v", spec, err)
	}
	dir = filepath.Join(home, ".cache", "saverd-clients", dir)
	if bin := npmclient.Installed(dir, find); bin != "" {
		return bin
	}
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		skip("%s is not in %s and npm is not on PATH to install it", spec, dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin, err := npmclient.Install(ctx, npm, dir, spec, find)
	var npmErr *npmclient.NPMError
	switch {
	case errors.As(err, &npmErr):
		skip("npm could not install %s: %v", spec, err)
	case err != nil:
		t.Fatalf("%s: %v", spec, err)
	}
	return bin
}

// Executable is path when it is an executable regular file, else "": a find for Install.
func Executable(path string) string {
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
		return path
	}
	return ""
}

// Client is one installed client, set up to run in a project.
type Client struct {
	Bin string
	Dir string   // the project the client runs in
	Env []string // its whole environment: HOME, PATH and what the client needs, nothing inherited
	// Timeout bounds one run (default a minute).
	Timeout time.Duration
}

// Result is what one run printed, and how it ended.
type Result struct {
	Stdout, Stderr string
	Err            error
}

// Run runs the client with args inside ns, stdin empty, and waits for it.
func (c Client) Run(t testing.TB, ns *claudeapi.Netns, args ...string) Result {
	t.Helper()
	timeout := c.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := ns.Run(cmd)
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return Result{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
}

// Must is Run that fails the test when the client does not exit 0, with what it printed.
func (c Client) Must(t testing.TB, ns *claudeapi.Netns, args ...string) Result {
	t.Helper()
	r := c.Run(t, ns, args...)
	if r.Err != nil {
		t.Fatalf("%s %q: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(c.Bin), args, r.Err, r.Stdout, r.Stderr)
	}
	return r
}

// BaseEnv is the environment every client run starts from: HOME (and a TMPDIR in it, made here), a PATH
// with node on it, a dumb terminal, and no color.
func BaseEnv(home string) []string {
	_ = os.MkdirAll(filepath.Join(home, "tmp"), 0o700) // a client that cannot make it says so itself
	path := "/usr/local/bin:/usr/bin:/bin"
	if node, err := exec.LookPath("node"); err == nil {
		path = filepath.Dir(node) + ":" + path
	}
	return []string{"HOME=" + home, "PATH=" + path, "TERM=dumb", "NO_COLOR=1", "TMPDIR=" + filepath.Join(home, "tmp")}
}
