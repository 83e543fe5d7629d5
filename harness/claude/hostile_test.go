//go:build unix

package claude

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/internal/safefile"
)

// hangGuard fails the test when read does not return at all: a reader that waits on a FIFO for good. It
// is no speed target: a read that returns, however slowly, is judged by what it returned.
const hangGuard = 30 * time.Second

// hostileLogs makes, in dir, a good Claude Code transcript and the files that once stalled a reader: a
// FIFO, a sparse 10 GB transcript whose first line is a real one, and a Codex rollout of a few hundred KB
// that inflates to ~400 MB. It returns their paths by name.
func hostileLogs(t *testing.T, dir string) map[string]string {
	t.Helper()
	paths := map[string]string{
		"good":   filepath.Join(dir, "good.jsonl"),
		"fifo":   filepath.Join(dir, "fifo.jsonl"),
		"sparse": filepath.Join(dir, "sparse.jsonl"),
		"bomb":   filepath.Join(dir, "rollout-2026-12-01T19-44-33-01a23323-2f6c-7410-9a90-799c96f92d5c.jsonl.zst"),
	}
	if err := os.WriteFile(paths["good"], []byte(callLine(0)+callLine(1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(paths["fifo"], 0o600); err != nil {
		t.Fatal(err)
	}
	// Lines past the first 4 KB, which the reader looks into for binary data, then a hole.
	if err := os.WriteFile(paths["sparse"], []byte(strings.Repeat(callLine(2), 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(paths["sparse"], 10<<30); err != nil {
		t.Fatal(err)
	}
	// A zstd stream may be many frames: one of a few MB of lines, compressed once and written 64 times,
	// is a bomb of hundreds of MB made in a moment.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	head := enc.EncodeAll([]byte(`{"timestamp":"2026-12-01T19:44:33Z","type":"session_meta","payload":{"id":"01a23323-2f6c-7410-9a90-799c96f92d5c","cwd":"/w"}}`+"\n"), nil)
	frame := enc.EncodeAll([]byte(strings.Repeat(`{"timestamp":"2026-12-01T19:44:34Z","type":"event_msg","payload":{"type":"agent_reasoning","text":"aaaaaaaaaaaaaaaa"}}`+"\n", 64<<10)), nil)
	if err := os.WriteFile(paths["bomb"], append(head, bytes.Repeat(frame, 64)...), 0o600); err != nil {
		t.Fatal(err)
	}
	return paths
}

// returns runs read and fails the test if it never returns (see hangGuard).
func returns[T any](t *testing.T, what string, read func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- read() }()
	select {
	case v := <-done:
		return v
	case <-time.After(hangGuard):
		t.Fatalf("%s never returned", what)
		panic("unreachable")
	}
}

// TestHostileLogsAreSkipped: a FIFO, a sparse 10 GB transcript and a zstd bomb are each refused with an
// error naming the file and saying why (no FIFO is waited on, nothing past the bounds is read), and a
// scan over them reads the good session and warns of each of the others. The inflated bound is cut to
// 4 MiB (the default's arithmetic is safefile's TestInflatedLimit), so the race detector's slow decoder
// meets it in a moment.
func TestHostileLogsAreSkipped(t *testing.T) {
	paths := hostileLogs(t, t.TempDir())
	opt := agentlog.Options{Limits: safefile.Limits{Inflated: 4 << 20}}
	cases := []struct {
		name string
		read func(path string) error
		path string
		want error
	}{
		{"a FIFO transcript", func(p string) error { _, err := ReadTranscript(p, opt); return err }, paths["fifo"], safefile.ErrNotRegular},
		{"a FIFO session", func(p string) error { _, err := ReadSession(p, opt); return err }, paths["fifo"], safefile.ErrNotRegular},
		{"a sparse 10 GB transcript", func(p string) error { _, err := ReadTranscript(p, opt); return err }, paths["sparse"], safefile.ErrTooLarge},
		{"a sparse 10 GB session", func(p string) error { _, err := ReadSession(p, opt); return err }, paths["sparse"], safefile.ErrTooLarge},
		{"a zstd bomb's transcript", func(p string) error { _, err := codex.ReadTranscript(p, opt); return err }, paths["bomb"], safefile.ErrTooLarge},
		{"a zstd bomb's session", func(p string) error { _, err := codex.ReadRollout(p, opt); return err }, paths["bomb"], safefile.ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := returns(t, tc.name, func() error { return tc.read(tc.path) })
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("err = %v, want %v naming %s", err, tc.want, tc.path)
			}
		})
	}
	cc, cx := string(harness.ClaudeCode), string(harness.Codex)
	files := []agentlog.File{{Path: paths["good"], Harness: cc, Reader: Harness{}}, {Path: paths["sparse"], Harness: cc, Reader: Harness{}},
		{Path: paths["bomb"], Harness: cx, Reader: codex.Harness{}}, {Path: paths["fifo"], Harness: cc, Reader: Harness{}}}
	type scanned struct {
		recs []agentlog.Record
		warn []string
	}
	got := returns(t, "Scan", func() scanned {
		recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{Options: opt})
		return scanned{recs, warn}
	})
	if len(got.recs) != 1 || got.recs[0].Calls != 2 {
		t.Fatalf("scan kept %d records (%+v), want the good session's 2 calls", len(got.recs), got.recs)
	}
	for _, name := range []string{"sparse", "bomb", "fifo"} {
		if !hasWarning(got.warn, paths[name]) {
			t.Errorf("no warning names the %s file:\n%s", name, strings.Join(got.warn, "\n"))
		}
	}
}
