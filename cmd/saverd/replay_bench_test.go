package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// BenchmarkReplayRead reads a generated replay of full-session tool.calls, each way a replay can: read
// whole (readScript, every request peeked as play peeks it), its first pass alone (scanFile), and both
// passes (every request taken from the second as play takes it). -benchmem shows what each holds:
// the whole read grows with the file, the passes do not.
func BenchmarkReplayRead(b *testing.B) {
	file := filepath.Join(b.TempDir(), "replay.ndjson")
	lines := writeReplay(b, file, 20_000)
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
			return drain(sc.cursor())
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
	lines := writeReplay(b, file, 20_000)
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
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

// playFile plays file to io.Discard, read whole or in two passes.
func playFile(file string, whole bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var src source
	if whole {
		sc, err := readScript(f, file)
		if err != nil {
			return err
		}
		src = sc.cursor()
	} else if src, err = scanFile(f, file, lineBuffer); err != nil {
		return err
	}
	return play(context.Background(), src, replayOptions{writeRoot: os.TempDir()}, io.Discard)
}

// drain takes every request from src as play does, handling none.
func drain(src source) error {
	for {
		e, ok := src.next()
		if !ok {
			return src.err()
		}
		e.req.peek()
	}
}
