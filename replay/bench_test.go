package replay

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/saverd/saverd/internal/fullsession"
)

// BenchmarkReplayRead reads a generated replay of full-session tool.calls, each way a replay can: read
// whole (readScript, every request peeked as play peeks it), its first pass alone (scanFile), and both
// passes (every request taken from the second as play takes it). -benchmem shows what each holds:
// the whole read grows with the file, the passes do not.
func BenchmarkReplayRead(b *testing.B) {
	file := filepath.Join(b.TempDir(), "replay.ndjson")
	lines := writeReplay(b, file)
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	cases := []struct {
		name string
		read func() error
	}{
		{"whole", func() error {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return err
			}
			sc, err := readScript(f, file)
			if err != nil {
				return err
			}
			return drain(sc.Source())
		}},
		{"pass1", func() error {
			_, err := scanFile(f, file, lineBuffer)
			return err
		}},
		{"passes", func() error {
			src, err := scanFile(f, file, lineBuffer)
			if err != nil {
				return err
			}
			return drain(src)
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.read(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/call")
		})
	}
}

// BenchmarkReplayPlay plays the same replay in-process, under the daemon's collector settings, from the
// whole read and from the two passes.
func BenchmarkReplayPlay(b *testing.B) {
	file := filepath.Join(b.TempDir(), "replay.ndjson")
	lines := writeReplay(b, file)
	defer debug.SetGCPercent(debug.SetGCPercent(daemonGCPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(daemonMemoryLimit))
	for _, whole := range []bool{true, false} {
		name := "stream"
		if whole {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := playFile(file, whole); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/call")
		})
	}
}

// daemonGCPercent and daemonMemoryLimit are the collector settings `saverd replay` plays under, the
// daemon's own (cmd/saverd/memory.go: gcPercent, memoryLimit).
const (
	daemonGCPercent   = 400
	daemonMemoryLimit = 400 << 20
)

// writeReplay writes a full session and 20,000 more tool.calls as NDJSON host requests
// (fullsession.Replay), and answers how many tool.calls it holds.
func writeReplay(b *testing.B, path string) int {
	data, calls := fullsession.Replay(20_000)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return calls
}

// playFile plays file to io.Discard, read whole or in two passes.
func playFile(file string, whole bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var src Source
	if whole {
		sc, err := readScript(f, file)
		if err != nil {
			return err
		}
		src = sc.Source()
	} else if src, err = scanFile(f, file, lineBuffer); err != nil {
		return err
	}
	return Play(context.Background(), src, Options{WriteRoot: os.TempDir()}, io.Discard)
}

// drain takes every request from src as play does, handling none.
func drain(src Source) error {
	for {
		e, ok := src.next()
		if !ok {
			return src.err()
		}
		e.req.peek()
	}
}
