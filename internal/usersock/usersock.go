// Package usersock guards the user's daemon socket from both ends. The socket's directory may sit in a
// directory every user can write (${TMPDIR:-/tmp}/saverd-$UID when there is no XDG_RUNTIME_DIR), where
// another user can create it first, as a directory of their own or a symbolic link, and listen there.
// So the daemon and every client accept only a directory that is no link, is the user's own and lets
// no one else in (0700), and a client writes nothing to a socket until the kernel says the process
// listening on it runs as the same user (SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS and FreeBSD).
package usersock

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrUnsafe: the socket's directory or the process listening on it is not the user's own. Nothing was
// sent; the error's text says why in one line.
var ErrUnsafe = errors.New("not the user's own")

// unsafeError is an ErrUnsafe that says which path and why, in those words alone.
type unsafeError struct{ path, why string }

func (e *unsafeError) Error() string        { return e.path + " " + e.why }
func (e *unsafeError) Is(target error) bool { return target == ErrUnsafe }

// CheckDir reports why dir cannot hold the user's socket: it must be a directory, not a symbolic link,
// owned by the user, with no permission for group or others. A missing dir is fs.ErrNotExist.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return unsafe(dir, "is a symbolic link")
	case !fi.IsDir():
		return unsafe(dir, "is not a directory")
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return unsafe(dir, fmt.Sprintf("is owned by uid %d, not by this user (uid %d)", uid, os.Getuid()))
	}
	if perm := fi.Mode().Perm(); checksMode && perm&0o077 != 0 {
		return unsafe(dir, fmt.Sprintf("has mode %04o: other users can reach it (it must be 0700)", perm))
	}
	return nil
}

// MakeDir creates dir (mode 0700, and its missing parents) when it does not exist, then checks it as
// CheckDir does. A directory it did not create is never changed: one that fails the checks is refused,
// not chmodded, and a symbolic link is never followed.
func MakeDir(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return fmt.Errorf("socket directory %s: %w", dir, err)
		}
		// Mkdir, not MkdirAll: MkdirAll takes an existing link to a directory for done. Losing a race
		// to another creator (EEXIST) leaves the check below to judge what it made.
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("socket directory %s: %w", dir, err)
		}
	}
	return CheckDir(dir)
}

// Dial connects to the user's socket at path: its directory is checked first (CheckDir), then the
// process listening, before the caller can write a byte. Either failing is an error wrapping ErrUnsafe,
// and the connection is closed unused.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	if err := CheckDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return nil, err
	}
	if err := CheckPeer(c, path); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// CheckPeer reports why the process at the other end of c is not the user's own. Where the platform
// cannot tell a socket's peer (PeerUID's ok false), the directory's checks are what keep others out.
func CheckPeer(c net.Conn, path string) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	uid, ok, err := PeerUID(uc)
	switch {
	case err != nil:
		return unsafe(path, "cannot be checked for who listens on it: "+err.Error())
	case ok && uid != os.Getuid():
		return unsafe(path, fmt.Sprintf("is answered by uid %d, not by this user (uid %d)", uid, os.Getuid()))
	}
	return nil
}

// Absent reports whether err means nothing is there yet (no directory, no socket, or no one listening),
// so a client may start the daemon and try again; an unsafe directory or peer is never absent.
func Absent(err error) bool {
	if errors.Is(err, ErrUnsafe) {
		return false
	}
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

func unsafe(path, why string) error { return &unsafeError{path: path, why: why} }
