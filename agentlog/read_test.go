//go:build unix

package agentlog

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/saverd/saverd/internal/safefile"
)

// TestOpenFileReadsAsOSFile: openFile's reader gives the bytes and the errors an *os.File gives, in
// reads of every size, read without waiting or the ordinary way.
func TestOpenFileReadsAsOSFile(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte(`{"type":"user","timestamp":"2026-12-01T10:00:00Z"}`+"\n"), 6000) // ~300 KB
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{7, 4096, 64 << 10, 256 << 10, 4 << 20} {
		for _, blocking := range []bool{false, true} {
			r, _, closeFn, err := openFile(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			r.(*rawFile).blocking = blocking
			var got []byte
			buf := make([]byte, size)
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("read %d: %v", size, err)
				}
			}
			closeFn()
			if !bytes.Equal(got, data) {
				t.Errorf("reads of %d bytes (blocking %v): %d bytes, want the file's %d", size, blocking, len(got), len(data))
			}
		}
	}
	_, _, _, err := openFile(filepath.Join(dir, "missing.jsonl"), 0)
	_, want := os.Open(filepath.Join(dir, "missing.jsonl"))
	if err == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want %v", err, want)
	}
	// What is no regular file is refused at the open, never waited on or read: a directory, a FIFO with
	// no writer (an open that waited would hold the reader for good); and a file past the bound is
	// refused unread.
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		max  int64
		want error
	}{
		{dir, 0, safefile.ErrNotRegular},
		{fifo, 0, safefile.ErrNotRegular},
		{path, 1000, safefile.ErrTooLarge},
	} {
		if _, _, _, err := openFile(tc.path, tc.max); !errors.Is(err, tc.want) {
			t.Errorf("openFile(%s, %d) = %v, want %v", filepath.Base(tc.path), tc.max, err, tc.want)
		}
	}
}
