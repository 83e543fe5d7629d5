//go:build unix

package rpc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListenRefusesAnUnsafeDirectory: the daemon listens only in a directory that is its user's own, no
// link and closed to others. One it did not make that fails is refused and left as it was (it used to
// be chmodded, or followed when a link), and neither the socket nor its lock is made through a link.
func TestListenRefusesAnUnsafeDirectory(t *testing.T) {
	cases := []struct {
		name string
		// setup makes what the daemon finds and returns the socket path and the directory a link points at.
		setup func(t *testing.T, root string) (sock, target string)
		want  string // "" listens; else what the error says
	}{
		{"missing: made 0700", func(t *testing.T, root string) (string, string) {
			return filepath.Join(root, "run", "s.sock"), ""
		}, ""},
		{"open to all", func(t *testing.T, root string) (string, string) {
			dir := mkdirMode(t, filepath.Join(root, "run"), 0o777)
			return filepath.Join(dir, "s.sock"), ""
		}, "has mode 0777"},
		{"a link to an open directory", func(t *testing.T, root string) (string, string) {
			target := mkdirMode(t, filepath.Join(root, "open"), 0o777)
			link := filepath.Join(root, "run")
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(link, "s.sock"), target
		}, "is a symbolic link"},
		{"a link to a private directory", func(t *testing.T, root string) (string, string) {
			target := mkdirMode(t, filepath.Join(root, "private"), 0o700)
			link := filepath.Join(root, "run")
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(link, "s.sock"), target
		}, "is a symbolic link"},
		{"the lock a link", func(t *testing.T, root string) (string, string) {
			dir := mkdirMode(t, filepath.Join(root, "run"), 0o700)
			target := mkdirMode(t, filepath.Join(root, "elsewhere"), 0o700)
			if err := os.Symlink(filepath.Join(target, "s.sock.lock"), filepath.Join(dir, "s.sock.lock")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "s.sock"), target
		}, "socket lock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			sock, target := tc.setup(t, root)
			var before os.FileMode
			if fi, err := os.Lstat(filepath.Dir(sock)); err == nil {
				before = fi.Mode()
			}
			ln, err := Listen(sock)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Listen = %v", err)
				}
				defer ln.Close()
				if fi, err := os.Lstat(filepath.Dir(sock)); err != nil || fi.Mode().Perm() != 0o700 {
					t.Fatalf("directory made %v, %v; want 0700", fi.Mode(), err)
				}
				return
			}
			if err == nil {
				ln.Close()
				t.Fatalf("Listen in %s succeeded", tc.name)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Listen = %v, want one saying %q", err, tc.want)
			}
			if fi, err := os.Lstat(filepath.Dir(sock)); err == nil && fi.Mode() != before {
				t.Fatalf("the refused directory was changed from %v to %v", before, fi.Mode())
			}
			if target != "" {
				if ents, _ := os.ReadDir(target); len(ents) > 0 {
					t.Fatalf("Listen made %s in the link's target", ents[0].Name())
				}
			}
		})
	}
}

func mkdirMode(t *testing.T, dir string, mode os.FileMode) string {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}
