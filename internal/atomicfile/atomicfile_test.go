package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestWrite: a file is replaced whole with the mode asked for (the umask aside), however its size
// changes, and a failed write leaves no temp file behind and names the file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "CLAUDE.md")
	for _, c := range []struct {
		data string
		perm os.FileMode
	}{{"first\n", 0o644}, {"second, shorter\n", 0o600}, {"", 0o640}, {strings.Repeat("long\n", 10_000), 0o666}} {
		if err := Write(path, []byte(c.data), c.perm); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		info, serr := os.Stat(path)
		if err != nil || serr != nil || string(b) != c.data || (runtime.GOOS != "windows" && info.Mode().Perm() != c.perm) {
			t.Fatalf("after Write(%d bytes, %v): %d bytes, %v (%v %v)", len(c.data), c.perm, len(b), info.Mode(), err, serr)
		}
	}
	cases := []struct {
		name, path string
		setup      func(t *testing.T, path string)
	}{
		{"rename over a directory", filepath.Join(dir, "settings.json"), func(t *testing.T, path string) {
			if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"a missing directory", filepath.Join(dir, "gone", "f"), func(*testing.T, string) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.setup(t, c.path)
			if err := Write(c.path, []byte("{}"), 0o644); err == nil || !strings.HasPrefix(err.Error(), "write "+c.path+": ") {
				t.Fatalf("Write = %v, want an error naming %s", err, c.path)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*"+TempMark+"*")); len(left) != 0 {
				t.Fatalf("temp files left: %v", left)
			}
		})
	}
}

// TestWriteTemp: the temp file is named by the pattern given (the registry finds a crashed writer's by
// it), and the error is the step's own, for the caller to word.
func TestWriteTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.json")
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	err := WriteTemp(path, []byte("{}"), 0o600, "k.json"+TempMark+"*")
	if err == nil || strings.HasPrefix(err.Error(), "write ") || !strings.Contains(err.Error(), "k.json"+TempMark) {
		t.Fatalf("WriteTemp over a directory = %v, want the rename's own error naming the temp file", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*"+TempMark+"*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

// TestReadersSeeOldOrNew: a reader of a file being rewritten reads one whole version or the other,
// never an empty or a part-written file (which truncating and writing in place shows it).
func TestReadersSeeOldOrNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	versions := [][]byte{bytes.Repeat([]byte("a"), 256<<10), bytes.Repeat([]byte("b"), 200<<10)}
	if err := Write(path, versions[0], 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := range 60 {
			if err := Write(path, versions[i%2], 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	})
	reads := 0
	for {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Fatal("no read overlapped the writes")
			}
			return
		default:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, versions[0]) && !bytes.Equal(b, versions[1]) {
			t.Fatalf("a reader saw %d bytes, neither version whole", len(b))
		}
		reads++
	}
}

// TestMode: an existing file's mode is kept, a new one gets the mode asked for.
func TestMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no Unix permission bits")
	}
	dir := t.TempDir()
	mine := filepath.Join(dir, "CLAUDE.md")
	if err := os.WriteFile(mine, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mine, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{mine, 0o600}, {filepath.Join(dir, "new.md"), 0o644}} {
		if got := Mode(c.path, 0o644); got != c.want {
			t.Errorf("Mode(%s) = %v, want %v", c.path, got, c.want)
		}
	}
}
