//go:build unix

package zstdlog

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/saverd/saverd/internal/safefile"
)

// writeZst writes n copies of line to path, zstd-compressed, and returns the compressed size. A zstd
// stream may be many frames, each inflating to its own part: a frame of 1024 lines is compressed once and
// written n/1024 times, so a bomb of hundreds of MB is made in a moment, even under the race detector.
func writeZst(t *testing.T, path, line string, n int) int64 {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll([]byte(strings.Repeat(line, 1024)), nil)
	data := bytes.Repeat(frame, n/1024)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return int64(len(data))
}

// TestReaderBounds: a .zst that inflates far past its own size stops at the bound with safefile.ErrTooLarge
// (after reading a bounded amount), one that inflates within it reads whole, and a read past its
// deadline stops with safefile.ErrTimeout.
func TestReaderBounds(t *testing.T) {
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.jsonl.zst")
	line := `{"type":"response_item","payload":{"type":"message","content":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}` + "\n"
	size := writeZst(t, bomb, line, 1<<20) // ~100 MB inflated
	small := filepath.Join(dir, "small.jsonl.zst")
	smallSize := writeZst(t, small, line, 1024)
	cases := []struct {
		name  string
		path  string
		size  int64
		l     safefile.Limits
		want  error
		bytes int64 // read before the end or the error, at most
	}{
		{"a bomb", bomb, size, safefile.Limits{Inflated: 1 << 20}, safefile.ErrTooLarge, 1<<20 + 1},
		{"a small log", small, smallSize, safefile.Limits{Inflated: 1 << 30}, nil, int64(1024 * len(line))},
		{"a deadline past", small, smallSize, safefile.Limits{Deadline: time.Now().Add(-time.Second)}, safefile.ErrTimeout, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, closeFn, err := Reader(f, tc.path, tc.size, tc.l)
			if err != nil {
				t.Fatal(err)
			}
			defer closeFn()
			n, err := io.Copy(io.Discard, r)
			if !errors.Is(err, tc.want) {
				t.Fatalf("read %d bytes, err = %v; want %v", n, err, tc.want)
			}
			if n > tc.bytes {
				t.Fatalf("read %d bytes, want at most %d", n, tc.bytes)
			}
			if err != nil && !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("the error %q does not name the file", err)
			}
		})
	}
}

// TestInflatedLimit: a .zst may inflate to 256 times its size, 64 MiB at least, and never past the bound
// it is read with.
func TestInflatedLimit(t *testing.T) {
	for _, tc := range []struct {
		size     int64
		inflated int64
		want     int64
	}{
		{45_000, 0, 64 << 20},        // a bomb of a few KB: the floor
		{10 << 20, 0, 2560 << 20},    // a 10 MB rollout: 256 times it
		{10 << 20, 1 << 30, 1 << 30}, // and no more than the bound
		{45_000, 1 << 20, 1 << 20},   // a bound under the floor
	} {
		if got := inflatedLimit(tc.size, safefile.Limits{Inflated: tc.inflated}); got != tc.want {
			t.Errorf("inflatedLimit(%d, %d) = %d, want %d", tc.size, tc.inflated, got, tc.want)
		}
	}
}

// TestReaderPlain: a plain file reads as it is.
func TestReaderPlain(t *testing.T) {
	r, closeFn, err := Reader(bytes.NewReader([]byte("a\nb\n")), "x.jsonl", 4, safefile.Limits{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if got, err := io.ReadAll(r); err != nil || string(got) != "a\nb\n" {
		t.Fatalf("read %q, %v", got, err)
	}
}
