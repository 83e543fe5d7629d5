package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/rs/zerolog"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/logset"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/store"
)

func newLogger(f *serveCmd, stderr io.Writer) (zerolog.Logger, io.Closer, error) {
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
func openRegistry(flagged string, log zerolog.Logger) session.Registry {
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
func daemonPrices(log zerolog.Logger) session.PriceTable {
	var l logset.Set
	tab, err := l.Table()
	if err != nil {
		log.Warn().Err(err).Msg("price overrides unreadable; the embedded prices apply")
		tab = prices.Default()
	}
	return session.TablePrices{Table: tab}
}

// historyLogs are the daemon logs impact.query reads when it names no sessions file; a machine with no
// state directory has none.
func historyLogs() session.HistoryLogs {
	h := session.HistoryLogs{Others: logset.Set{}.DiscoverOthers}
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

// idleEvictOption is --idle-evict as session.Options.IdleEvict: the flag's 0 (never) is the option's
// negative, since the option's 0 is its default.
func idleEvictOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
