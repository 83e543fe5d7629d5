package rpc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/saverd/saverd/internal/filelock"
	"github.com/saverd/saverd/internal/usersock"
)

// ErrRunning: another daemon already serves the socket (it holds the socket's lock).
var ErrRunning = errors.New("another saverd daemon serves this socket")

// Listener is the user's daemon socket: one daemon per path, reachable only by the same user.
type Listener struct {
	ln   *net.UnixListener
	lock *os.File
	path string
	// Refused is called for each connection refused because its peer is another user (uid -1: the
	// kernel would not say who).
	Refused func(uid int)
}

// Listen opens the Unix socket at path. The directory is made 0700 when missing; one that exists must
// be the user's own, no link, and closed to others (usersock.MakeDir), or Listen refuses it, changing
// nothing: in a directory others can write, another user could swap the socket, or have made the
// directory a link to one of theirs. The socket is made 0600; a lock on path+".lock" (never opened
// through a link) makes one daemon per path, so a socket file left by a daemon that died is stale and
// is replaced, while a live daemon's is never taken over (ErrRunning).
func Listen(path string) (*Listener, error) {
	if err := usersock.MakeDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("socket directory: %w", err)
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
// Where the platform cannot name a socket's peer (usersock.PeerUID), the 0700 directory keeps others out.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.ln.AcceptUnix()
		if err != nil {
			return nil, err
		}
		uid, ok, err := usersock.PeerUID(c)
		if err != nil {
			uid, ok = -1, true // a peer the kernel cannot name is no one we know
		}
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
