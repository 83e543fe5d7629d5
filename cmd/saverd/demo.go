package main

import (
	"context"
	"fmt"

	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/replay"
	"github.com/saverd/saverd/replay/demo"
)

// demoCmd is `saverd demo`: the sample session played through the daemon, its views printed.
type demoCmd struct {
	width  int
	ndjson bool
	show   string
}

func newDemoCmd() *cli.Command {
	c := &demoCmd{}
	fs := cli.NewFlagSet()
	fs.Int(&c.width, "width", 100, "N", "width of the band and the pane (default 100)")
	fs.Bool(&c.ndjson, "ndjson", false, "also print every frame the daemon sent, as replay does")
	fs.String(&c.show, "show", "band,pane", "V", "the views to print at the end: band, pane, debug (comma-separated; default band,pane)")
	return &cli.Command{Short: "a built-in sample session played through the daemon, ending in the band and the pane as text",
		Flags: fs, Run: c.run}
}

func (c *demoCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	views, err := replay.ParseShow(c.show)
	if err == nil {
		err = checkWidth(c.width)
	}
	if err != nil {
		return e.UsageError(err.Error())
	}
	sc := demo.Script()
	fmt.Fprintf(e.Out, "saverd demo: %d host requests played through the daemon; the judge forked once.\n\n", sc.Requests())
	opt := replay.Options{Version: version, Show: views, Width: c.width, Quiet: !c.ndjson}
	if err := replay.Play(ctx, sc.Source(), opt, e.Out); err != nil {
		fmt.Fprintln(e.Err, "saverd demo:", err)
		return 1
	}
	return 0
}
