//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenRaw: a FIFO is refused at once, a sparse file past the size bound is refused unread, a plain
// file opens with its size.
func TestOpenRaw(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.jsonl")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 10<<30); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.jsonl")
	if err := os.WriteFile(plain, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
		size int64
	}{
		{fifo, ErrNotRegular, 0},
		{sparse, ErrTooLarge, 0},
		{plain, nil, 3},
		{dir, ErrNotRegular, 0},
	} {
		fd, size, err := OpenRaw(tc.path, 1<<30)
		if !errors.Is(err, tc.want) {
			t.Errorf("OpenRaw(%s) = %v, want %v", filepath.Base(tc.path), err, tc.want)
		}
		if err == nil {
			syscall.Close(fd)
			if size != tc.size {
				t.Errorf("OpenRaw(%s) size %d, want %d", filepath.Base(tc.path), size, tc.size)
			}
		} else if !strings.Contains(err.Error(), tc.path) {
			t.Errorf("OpenRaw's error %q does not name the file", err)
		}
	}
}
