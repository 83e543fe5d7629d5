package main

import (
	"context"
	"fmt"
	"os"

	"github.com/saverd/saverd/daemon"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/replay"
	"github.com/saverd/saverd/textview"
)

// replayCmd is `saverd replay FILE`: the flags, the exit codes and the process's settings around the
// replay package, which plays the recording.
type replayCmd struct {
	show, cpuProfile string
	width            int
	write            bool
}

func newReplayCmd() *cli.Command {
	c := &replayCmd{}
	fs := cli.NewFlagSet()
	fs.String(&c.show, "show", "", "V", "print the final views as text: band, pane, debug (comma-separated)")
	fs.Int(&c.width, "width", 100, "N", "width of the views --show prints (default 100)")
	fs.Bool(&c.write, "write", false, "write the rules the recording writes at their recorded paths (by default they land in a temp dir, removed after)")
	fs.String(&c.cpuProfile, "cpuprofile", "", "FILE", "write a CPU profile of the replay to this file")
	return &cli.Command{Usage: []string{"FILE [flags]"},
		Short: "play a recording (or NDJSON of host requests) through a fresh daemon in-process",
		Long: "model.fork is answered from the recorded replies in order; every response and notification is printed as NDJSON, " +
			"in the order a live daemon sends them.",
		Flags: fs, Run: c.run}
}

func (c *replayCmd) run(ctx context.Context, e cli.Env) int {
	if len(e.Args) != 1 {
		return e.UsageError("want exactly one FILE (a --record file or NDJSON of host requests)")
	}
	views, err := replay.ParseShow(c.show)
	if err == nil {
		err = checkWidth(c.width)
	}
	if err != nil {
		return e.UsageError(err.Error())
	}
	if c.cpuProfile != "" {
		stopProfile, err := startProfile(c.cpuProfile)
		if err != nil {
			return e.UsageError("--cpuprofile: " + err.Error())
		}
		defer stopProfile()
	}
	daemon.TuneGC() // the daemon's own collector settings: a replay plays through it as serve does
	name := e.Args[0]
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(e.Err, "saverd replay:", err)
		return 1
	}
	defer f.Close()
	src, err := replay.Open(f, name)
	if err != nil {
		fmt.Fprintln(e.Err, "saverd replay:", err)
		return 1
	}
	opt := replay.Options{Version: version, Show: views, Width: c.width}
	if !c.write {
		root, err := os.MkdirTemp("", "saverd-replay-")
		if err != nil {
			fmt.Fprintln(e.Err, "saverd replay:", err)
			return 1
		}
		defer os.RemoveAll(root)
		opt.WriteRoot = root
	}
	if err := replay.Play(ctx, src, opt, e.Out); err != nil {
		fmt.Fprintln(e.Err, "saverd replay:", err)
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
