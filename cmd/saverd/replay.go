package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/saverd/saverd/daemon"
	replaypkg "github.com/saverd/saverd/replay" // the name replay is audit.go's function in package main
)

// runReplay is `saverd replay FILE`: the flags, the exit codes and the process's settings around the
// replay package, which plays the recording.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("saverd replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	show := fs.String("show", "", "print the final views as text: band, pane, debug (comma-separated)")
	width := fs.Int("width", 100, "width of the views --show prints")
	write := fs.Bool("write", false, "write the rules the recording writes at their recorded paths (by default they land in a temp dir, removed after)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the replay to this file")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "saverd replay: want exactly one FILE (a --record file or NDJSON of host requests)")
		return 2
	}
	views, err := replaypkg.ParseShow(*show)
	if err == nil {
		err = checkWidth(*width)
	}
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 2
	}
	if *cpuProfile != "" {
		stopProfile, err := startProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "saverd replay: --cpuprofile:", err)
			return 2
		}
		defer stopProfile()
	}
	daemon.TuneGC() // the daemon's own collector settings: a replay plays through it as serve does
	name := files[0]
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	defer f.Close()
	src, err := replaypkg.Open(f, name)
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	opt := replaypkg.Options{Version: version, Show: views, Width: *width}
	if !*write {
		root, err := os.MkdirTemp("", "saverd-replay-")
		if err != nil {
			fmt.Fprintln(stderr, "saverd replay:", err)
			return 1
		}
		defer os.RemoveAll(root)
		opt.WriteRoot = root
	}
	if err := replaypkg.Play(ctx, src, opt, stdout); err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	return 0
}
