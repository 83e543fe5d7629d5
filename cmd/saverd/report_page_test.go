package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWritePage: the page replaces the file whole, as writing it in place did for a person's set-up: a
// link at --out is written through (the link stays), an existing page keeps its mode, a new one is 0644.
func TestWritePage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("modes and links are Unix's here")
	}
	dir := t.TempDir()
	kept, target, link := filepath.Join(dir, "kept.html"), filepath.Join(dir, "site", "page.html"), filepath.Join(dir, "link.html")
	if err := os.WriteFile(kept, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, out, lands string
		mode             os.FileMode
	}{
		{"new", filepath.Join(dir, "new.html"), filepath.Join(dir, "new.html"), 0o644},
		{"existing", kept, kept, 0o600},
		{"through a link", link, target, 0o640},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := writePage(c.out, []byte("<html>page</html>")); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(c.lands)
			info, serr := os.Stat(c.lands)
			if err != nil || serr != nil || string(b) != "<html>page</html>" || info.Mode().Perm() != c.mode {
				t.Fatalf("%s holds %q mode %v (%v %v), want the page, mode %v", c.lands, b, info.Mode(), err, serr, c.mode)
			}
			if fi, err := os.Lstat(c.out); err != nil || (c.out == link) != (fi.Mode()&os.ModeSymlink != 0) {
				t.Fatalf("%s after the write: %v %v", c.out, fi.Mode(), err)
			}
		})
	}
}
