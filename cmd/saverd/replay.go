package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/saverd/saverd/daemon"
	"github.com/saverd/saverd/replay"
	"github.com/saverd/saverd/replay/demo"
	"github.com/saverd/saverd/textview"
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
	views, err := replay.ParseShow(*show)
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
	src, err := replay.Open(f, name)
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	opt := replay.Options{Version: version, Show: views, Width: *width}
	if !*write {
		root, err := os.MkdirTemp("", "saverd-replay-")
		if err != nil {
			fmt.Fprintln(stderr, "saverd replay:", err)
			return 1
		}
		defer os.RemoveAll(root)
		opt.WriteRoot = root
	}
	if err := replay.Play(ctx, src, opt, stdout); err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	return 0
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("saverd demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	width := fs.Int("width", 100, "width of the band and the pane")
	ndjson := fs.Bool("ndjson", false, "also print every frame the daemon sent, as replay does")
	show := fs.String("show", "band,pane", "the views to print at the end: band, pane, debug (comma-separated)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	views, err := replay.ParseShow(*show)
	if err == nil {
		err = checkWidth(*width)
	}
	if err != nil {
		fmt.Fprintln(stderr, "saverd demo:", err)
		return 2
	}
	sc := demo.Script()
	fmt.Fprintf(stdout, "saverd demo: %d host requests played through the daemon; the judge forked once.\n\n", sc.Requests())
	opt := replay.Options{Version: version, Show: views, Width: *width, Quiet: !*ndjson}
	if err := replay.Play(ctx, sc.Source(), opt, stdout); err != nil {
		fmt.Fprintln(stderr, "saverd demo:", err)
		return 1
	}
	return 0
}

// checkWidth refuses a width the views are not drawn for (view.text's range).
func checkWidth(w int) error {
	if w < textview.MinWidth || w > 1000 {
		return fmt.Errorf("--width: want %d to 1000 columns, got %d", textview.MinWidth, w)
	}
	return nil
}
