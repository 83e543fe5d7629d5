package filelock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/filelock"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|filelock.NoFollow, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestTryLock: a second holder of the same file is refused while the first holds it, and gets it after.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, path), open(t, path)
	if err := filelock.Lock(a, true); err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if err := filelock.TryLock(b); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("TryLock while held = %v, want ErrLocked", err)
	}
	if err := filelock.Unlock(a); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
	if err := filelock.TryLock(b); err != nil {
		t.Fatalf("TryLock after unlock = %v", err)
	}
}

// TestSharedLocks: two shared holders at once; an exclusive one waits for neither when both are gone.
func TestSharedLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b, c := open(t, path), open(t, path), open(t, path)
	if err := filelock.Lock(a, false); err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(b, false); err != nil {
		t.Fatalf("second shared lock: %v", err)
	}
	if err := filelock.TryLock(c); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("exclusive while shared = %v, want ErrLocked", err)
	}
	a.Close()
	if err := filelock.Unlock(b); err != nil {
		t.Fatal(err)
	}
	if err := filelock.TryLock(c); err != nil {
		t.Fatalf("exclusive after both shared ones went: %v", err)
	}
}

// TestNoFollow: a lock file that is a symbolic link is refused, not followed.
func TestNoFollow(t *testing.T) {
	if filelock.NoFollow == 0 {
		t.Skip("this platform's opens have no no-follow flag")
	}
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := os.OpenFile(link, os.O_RDWR|os.O_CREATE|filelock.NoFollow, 0o600); err == nil {
		t.Fatal("opened a lock file through a symbolic link")
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the link's target was created: %v", err)
	}
}

// TestUpgrade: a shared lock becomes exclusive, and then keeps every other holder out.
func TestUpgrade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, path), open(t, path)
	if err := filelock.Lock(a, false); err != nil {
		t.Fatal(err)
	}
	if err := filelock.Upgrade(a); err != nil {
		t.Fatalf("Upgrade: %v", err)
	}
	if err := filelock.TryLock(b); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("TryLock after upgrade = %v, want ErrLocked", err)
	}
}
