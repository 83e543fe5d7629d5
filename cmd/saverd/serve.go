package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rs/zerolog"
	"github.com/saverd/saverd/daemon"
	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/store"
)

// serveCmd is `saverd serve`, the daemon: 0 when it stopped as asked, 2 on a usage error, 1 when the socket
// cannot be listened on.
type serveCmd struct {
	framing     string
	storeDir    string
	logFile     string
	logLevel    string
	forkTimeout time.Duration
	record      string
	testHooks   bool
	cpuProfile  string
	memProfile  string
	listen      string
	idleExit    time.Duration
	idleEvict   time.Duration
	frameWait   time.Duration
}

func newServeCmd() *cli.Command {
	f := &serveCmd{}
	fs := cli.NewFlagSet()
	fs.String(&f.framing, "framing", "auto", "F", "wire framing: auto, ndjson or header (LSP Content-Length; default auto)")
	fs.String(&f.storeDir, "store", "", "DIR", "registry directory (default $XDG_STATE_HOME/saverd, else ~/.local/state/saverd)")
	fs.String(&f.logFile, "log-file", "", "FILE", "write logs to this file instead of stderr")
	fs.String(&f.logLevel, "log-level", "info", "LEVEL", "log level: debug, info, warn, error (default info)")
	fs.Duration(&f.forkTimeout, "fork-timeout", 10*time.Minute, "D", "how long a model.fork may take before the run ends (default 10m)")
	fs.String(&f.record, "record", "", "FILE", "write every frame in both directions to this NDJSON file")
	fs.String(&f.listen, "listen", "", "PATH", "serve on this Unix socket instead of stdin/stdout (\"default\": "+paths.Socket()+")")
	fs.Duration(&f.idleExit, "idle-exit", 30*time.Minute, "D", "with --listen: exit after this long with no connection and no request (default 30m; 0: never)")
	fs.Duration(&f.frameWait, "frame-timeout", daemon.DefaultFrameWait, "D", "with --listen: how long a connection's frame, once begun, "+
		"may wait for the rest of its bytes before the connection is closed (default 30s)")
	fs.Duration(&f.idleEvict, "idle-evict", session.DefaultIdleEvict, "D", "evict a session no hook has named for this long, "+
		"flushed first (a later event rejoins it; default 6h; 0: never)")
	fs.String(&f.cpuProfile, "cpuprofile", "", "FILE", "write a CPU profile of the whole run to this file")
	fs.String(&f.memProfile, "memprofile", "", "FILE", "write a heap profile (what is live, and everything allocated) to this file at exit")
	fs.Bool(&f.testHooks, "test-hooks", false, "enable debug.panic (tests only)")
	return &cli.Command{Short: "the daemon: JSON-RPC 2.0 on stdin and stdout (protocol.md), or with --listen on a Unix socket, " +
		"one connection per client (the user's shared daemon)",
		Long:  "Logs go to stderr or --log-file.",
		Flags: fs, Run: f.run}
}

// check reads what the flags say beyond their types.
func (f *serveCmd) check() error {
	if _, err := rpc.ParseFraming(f.framing); err != nil {
		return err
	}
	if f.idleExit < 0 {
		return fmt.Errorf("--idle-exit must not be negative, got %s", f.idleExit)
	}
	if f.frameWait <= 0 {
		return fmt.Errorf("--frame-timeout must be positive, got %s", f.frameWait)
	}
	if f.listen == "default" {
		f.listen = paths.Socket()
	}
	if f.forkTimeout <= 0 {
		return fmt.Errorf("--fork-timeout must be positive, got %s", f.forkTimeout)
	}
	return nil
}

func (f *serveCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	if err := f.check(); err != nil {
		return e.UsageError(err.Error())
	}
	log, closer, err := newLogger(f, e.Err)
	if err != nil {
		return e.UsageError(err.Error())
	}
	if closer != nil {
		defer closer.Close()
	}
	var record io.Writer
	if f.record != "" {
		file, err := os.Create(f.record)
		if err != nil {
			return e.UsageError("--record: " + err.Error())
		}
		defer file.Close()
		record = file
	}
	if f.cpuProfile != "" {
		stopProfile, err := startProfile(f.cpuProfile)
		if err != nil {
			return e.UsageError("--cpuprofile: " + err.Error())
		}
		defer stopProfile()
	}
	if f.memProfile != "" {
		defer writeHeapProfile(f.memProfile, e.Err)
	}
	daemon.TuneGC()
	opt := f.options(log)
	srv := handlers.New(opt)
	if f.listen != "" {
		return daemon.ServeSocket(ctx, srv, daemon.SocketOptions{Path: f.listen, IdleExit: f.idleExit, FrameWait: f.frameWait, Log: log})
	}
	if in, ok := e.In.(*os.File); ok && textout.IsTerminal(in) {
		// A person who typed bare saverd would otherwise face a silent wait for JSON-RPC frames.
		fmt.Fprintln(e.Err, "saverd: serving JSON-RPC on stdin (saverd --help lists the commands)")
	}
	daemon.ServeStdio(ctx, srv, e.In, e.Out, daemon.StdioOptions{Framing: rpc.Framing(f.framing), Record: record, OffLoop: opt.OffLoop, Log: log})
	return 0
}

// options wire the daemon's handlers: the registry and the journal of rule writes in the state directory,
// the prices, the logs impact.query reads; on the socket the sessions log, on stdio the read loop's P.
func (f *serveCmd) options(log zerolog.Logger) session.Options {
	opt := session.Options{
		Version:     version,
		Store:       openRegistry(f.storeDir, log),
		Log:         log,
		ForkTimeout: f.forkTimeout,
		OpenStore: func(dir string) (session.Registry, error) {
			return store.Open(dir, log)
		},
		TestHooks:  f.testHooks,
		ForkAlways: f.listen != "",
		IdleEvict:  idleEvictOption(f.idleEvict),
		Journal:    openJournal(f.storeDir, log),
	}
	if f.listen != "" {
		opt.SessionsLog = sessionsLog(log)
	} else {
		opt.OffLoop = daemon.StdioProcs().Hook()
	}
	opt.HistoryLogs = historyLogs()
	opt.Prices = daemonPrices(log)
	return opt
}
