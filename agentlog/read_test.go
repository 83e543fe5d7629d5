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
			r, closeFn, err := openFile(path)
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
	_, _, err := openFile(filepath.Join(dir, "missing.jsonl"))
	_, want := os.Open(filepath.Join(dir, "missing.jsonl"))
	if err == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want %v", err, want)
	}
	r, closeFn, err := openFile(dir) // a directory opens, and refuses to be read
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	r.(*rawFile).blocking = false
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = r.Read(make([]byte, 16))
	_, wantErr := f.Read(make([]byte, 16))
	if err == nil || err.Error() != wantErr.Error() || !errors.Is(err, syscall.EISDIR) {
		t.Errorf("reading a directory: %v, want %v", err, wantErr)
	}
}
