package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/daemon"
	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/logset"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/store"
)

type serveFlags struct {
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

func parseServe(args []string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := flag.NewFlagSet("saverd serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.framing, "framing", "auto", "wire framing: auto, ndjson or header (LSP Content-Length)")
	fs.StringVar(&f.storeDir, "store", "", "registry directory (default $XDG_STATE_HOME/saverd, else ~/.local/state/saverd)")
	fs.StringVar(&f.logFile, "log-file", "", "write logs to this file instead of stderr")
	fs.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.DurationVar(&f.forkTimeout, "fork-timeout", 10*time.Minute, "how long a model.fork may take before the run ends")
	fs.StringVar(&f.record, "record", "", "write every frame in both directions to this NDJSON file")
	fs.BoolVar(&f.testHooks, "test-hooks", false, "enable debug.panic (tests only)")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this file")
	fs.StringVar(&f.memProfile, "memprofile", "", "write a heap profile (what is live, and everything allocated) to this file at exit")
	fs.StringVar(&f.listen, "listen", "", "serve on this Unix socket instead of stdin/stdout (\"default\": "+paths.Socket()+")")
	fs.DurationVar(&f.idleExit, "idle-exit", 30*time.Minute, "with --listen: exit after this long with no connection and no request (0: never)")
	fs.DurationVar(&f.frameWait, "frame-timeout", daemon.DefaultFrameWait, "with --listen: how long a connection's frame, once begun, may wait for the rest of its bytes before the connection is closed")
	fs.DurationVar(&f.idleEvict, "idle-evict", handlers.DefaultIdleEvict, "evict a session no hook has named for this long, flushed first (a later event rejoins it); 0 never")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if _, err := rpc.ParseFraming(f.framing); err != nil {
		return f, err
	}
	if f.idleExit < 0 {
		return f, fmt.Errorf("--idle-exit must not be negative, got %s", f.idleExit)
	}
	if f.frameWait <= 0 {
		return f, fmt.Errorf("--frame-timeout must be positive, got %s", f.frameWait)
	}
	if f.listen == "default" {
		f.listen = paths.Socket()
	}
	if f.forkTimeout <= 0 {
		return f, fmt.Errorf("--fork-timeout must be positive, got %s", f.forkTimeout)
	}
	return f, nil
}

func newLogger(f serveFlags, stderr io.Writer) (zerolog.Logger, io.Closer, error) {
	level, err := zerolog.ParseLevel(f.logLevel)
	if err != nil || f.logLevel == "" {
		return zerolog.Nop(), nil, fmt.Errorf("--log-level: want debug, info, warn or error, got %q", f.logLevel)
	}
	out, closer := stderr, io.Closer(nil)
	if f.logFile != "" {
		file, err := os.OpenFile(f.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("open log file: %w", err)
		}
		out, closer = file, file
	}
	return zerolog.New(out).Level(level).With().Timestamp().Str("app", "saverd").Logger(), closer, nil
}

// storeDirOf is --store, else the default state directory.
func storeDirOf(flagged string) (string, error) {
	if flagged != "" {
		return flagged, nil
	}
	return store.DefaultDir()
}

// openRegistry opens the store; a store that cannot be opened costs the daemon its memory, not its life.
func openRegistry(flagged string, log zerolog.Logger) handlers.Registry {
	dir, err := storeDirOf(flagged)
	if err != nil {
		log.Error().Err(err).Msg("no registry directory; patterns will not be remembered")
		return nil
	}
	st, err := store.Open(dir, log)
	if err != nil {
		log.Error().Err(err).Str("dir", dir).Msg("registry unavailable; patterns will not be remembered")
		return nil
	}
	return st
}

// openJournal opens the journal of rule writes `/saver undo` reads, in writes/ beside the registry; one
// that cannot be opened costs the person their undo, which a write then says, not the daemon its life.
func openJournal(flagged string, log zerolog.Logger) *store.Journal {
	dir, err := storeDirOf(flagged)
	if err != nil {
		log.Error().Err(err).Msg("no state directory; rule writes cannot be undone")
		return nil
	}
	j, err := store.OpenJournal(filepath.Join(dir, "writes"))
	if err != nil {
		log.Error().Err(err).Msg("journal of rule writes unavailable; they cannot be undone")
		return nil
	}
	return j
}

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseServe(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "saverd serve:", err)
		return 2
	}
	log, closer, err := newLogger(f, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "saverd serve:", err)
		return 2
	}
	if closer != nil {
		defer closer.Close()
	}
	var record io.Writer
	if f.record != "" {
		file, err := os.Create(f.record)
		if err != nil {
			fmt.Fprintln(stderr, "saverd serve: --record:", err)
			return 2
		}
		defer file.Close()
		record = file
	}
	if f.cpuProfile != "" {
		stopProfile, err := startProfile(f.cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "saverd serve: --cpuprofile:", err)
			return 2
		}
		defer stopProfile()
	}
	if f.memProfile != "" {
		defer writeHeapProfile(f.memProfile, stderr)
	}
	daemon.TuneGC()
	opt := handlers.Options{
		Version:     version,
		Store:       openRegistry(f.storeDir, log),
		Log:         log,
		ForkTimeout: f.forkTimeout,
		OpenStore: func(dir string) (handlers.Registry, error) {
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
	srv := handlers.New(opt)
	if f.listen != "" {
		return daemon.ServeSocket(ctx, srv, daemon.SocketOptions{Path: f.listen, IdleExit: f.idleExit, FrameWait: f.frameWait, Log: log})
	}
	daemon.ServeStdio(ctx, srv, stdin, stdout, daemon.StdioOptions{Framing: rpc.Framing(f.framing), Record: record, OffLoop: opt.OffLoop, Log: log})
	return 0
}

// startProfile writes a CPU profile until the returned stop is called.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeHeapProfile writes the heap profile at exit, after a collection so what it calls live is.
func writeHeapProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "saverd serve: --memprofile:", err)
	}
}

// daemonPrices is the table the daemon prices its judges, savings and instructions by: the embedded one
// with the person's overrides (<config dir>/prices.json), as `saverd sessions` and the sessions log price
// the same calls, so the pane and those agree. A file that does not parse is logged and left out.
func daemonPrices(log zerolog.Logger) handlers.PriceTable {
	var l logset.Set
	tab, err := l.Table()
	if err != nil {
		log.Warn().Err(err).Msg("price overrides unreadable; the embedded prices apply")
		tab = prices.Default()
	}
	return handlers.TablePrices{Table: tab}
}

// historyLogs are the daemon logs impact.query reads when it names no sessions file; a machine with no
// state directory has none.
func historyLogs() handlers.HistoryLogs {
	h := handlers.HistoryLogs{Others: logset.Set{}.DiscoverOthers}
	if p, err := paths.SessionsLog(); err == nil {
		h.SessionsLog = p
	}
	if p, err := paths.ForksLog(); err == nil {
		h.ForksLog = p
	}
	return h
}

// sessionsLog is where the socket daemon appends its session records ("" when no state directory).
func sessionsLog(log zerolog.Logger) string {
	p, err := paths.SessionsLog()
	if err != nil {
		log.Warn().Err(err).Msg("no sessions log")
		return ""
	}
	return p
}

// idleEvictOption is --idle-evict as handlers.Options.IdleEvict: the flag's 0 (never) is the option's
// negative, since the option's 0 is its default.
func idleEvictOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
