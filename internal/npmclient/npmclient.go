// Package npmclient installs a pinned npm package into a cache directory for the tests that drive a
// real client (Claude Code, Codex). Test binaries of several packages run at once and may all find
// the client missing: one installs under a lock on DIR.lock while the others wait, and a directory
// counts as installed only once its marker is written after npm finished, so no test runs a binary
// npm is still writing ("text file busy").
package npmclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/saverd/saverd/internal/filelock"
)

// marker is written into an install directory once the client in it is whole.
const marker = ".saverd-installed"

// Installed is find's binary in dir once an install there finished, else "".
func Installed(dir string, find func(dir string) string) string {
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		return ""
	}
	return find(dir)
}

// NPMError is npm failing to install the package: the tests skip on it, with npm's words.
type NPMError struct {
	Spec, Dir string
	Out       []byte
	Err       error
}

func (e *NPMError) Error() string {
	return fmt.Sprintf("npm install %s into %s: %v\n%s", e.Spec, e.Dir, e.Err, tail(e.Out, 2000))
}

func (e *NPMError) Unwrap() error { return e.Err }

// ErrNoBinary: npm installed the package, but find sees no binary for this platform in it.
var ErrNoBinary = errors.New("no binary for this platform in the installed package")

// Install returns find's binary in dir, first installing spec (`@scope/name@version`) there with npm
// when no finished install is there. A directory a client was put in some other way (CI's own npm
// install, a build of these tests before the marker) is taken as it is once the lock is held, since
// no install of ours is running then.
func Install(ctx context.Context, npm, dir, spec string, find func(dir string) string) (string, error) {
	if bin := Installed(dir, find); bin != "" {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("install directory %s: %w", dir, err)
	}
	unlock, err := lock(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if bin := find(dir); bin != "" {
		return bin, mark(dir)
	}
	out, err := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, spec).CombinedOutput()
	if err != nil {
		return "", &NPMError{Spec: spec, Dir: dir, Out: out, Err: err}
	}
	bin := find(dir)
	if bin == "" {
		return "", fmt.Errorf("npm install %s into %s: %w:\n%s", spec, dir, ErrNoBinary, tail(out, 2000))
	}
	return bin, mark(dir)
}

func mark(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, marker), nil, 0o644); err != nil {
		return fmt.Errorf("mark the install in %s: %w", dir, err)
	}
	return nil
}

// lock takes an exclusive lock on path, waiting for it; the returned func releases it.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open install lock %s: %w", path, err)
	}
	if err := filelock.Lock(f, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// tail is the last n bytes of b, for an error message.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
