package rpc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/saverd/saverd/internal/filelock"
)

// ErrRunning: another daemon already serves the socket (it holds the socket's lock).
var ErrRunning = errors.New("another saverd daemon serves this socket")

// Listener is the user's daemon socket: one daemon per path, reachable only by the same user.
type Listener struct {
	ln   *net.UnixListener
	lock *os.File
	path string
	// Refused is called for each connection refused because its peer is another user.
	Refused func(uid int)
}

// Listen opens the Unix socket at path. The directory is made 0700 and the socket 0600; a lock on
// path+".lock" makes one daemon per path, so a socket file left by a daemon that died is stale and is
// replaced, while a live daemon's is never taken over (ErrRunning).
func Listen(path string) (*Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("socket directory %s: %w", dir, err)
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink == 0 && fi.Mode().Perm()&0o077 != 0 {
		// A directory of ours that others can enter would let them race us for the socket name.
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("socket directory %s: %w", dir, err)
		}
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR|filelock.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("socket lock %s.lock: %w", path, err)
	}
	if err := filelock.TryLock(lock); err != nil {
		lock.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("socket lock %s.lock: %w", path, err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			lock.Close()
			return nil, fmt.Errorf("%s exists and is not a socket: not replacing it", path)
		}
		_ = os.Remove(path) // stale: its daemon no longer holds the lock
	}
	ln, err := listenPrivate(path)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		lock.Close()
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return &Listener{ln: ln, lock: lock, path: path}, nil
}

// Path is the socket's path.
func (l *Listener) Path() string { return l.path }

// Accept waits for the next connection of the same user; a peer of another uid is closed unanswered.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.ln.AcceptUnix()
		if err != nil {
			return nil, err
		}
		uid, ok := peerUID(c)
		if ok && uid != os.Getuid() {
			if l.Refused != nil {
				l.Refused(uid)
			}
			c.Close()
			continue
		}
		return c, nil
	}
}

// Close stops listening, removes the socket and releases the lock.
func (l *Listener) Close() error {
	err := l.ln.Close()
	l.lock.Close()
	return err
}
