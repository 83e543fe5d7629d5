// Package daemon runs saverd's daemon around a handlers.Server, on stdio or on the user's shared Unix
// socket. On stdio one host speaks to it and its read loop keeps one P (procs.go); on the socket each
// client is a connection of its own, and the hub (hub.go) sends notifications to the hosts that said
// initialize, forks through a host that offers model.fork (else the fork command), and ends only the
// connection that says shutdown and exit. It stops on a signal, at EOF on stdio, or after the socket's
// idle exit, flushing every session first within ShutdownGrace.
package daemon

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
)

// ShutdownGrace bounds the flush at exit: EOF or SIGTERM exits within a second.
const ShutdownGrace = 800 * time.Millisecond

// StdioOptions are the stdio daemon's settings.
type StdioOptions struct {
	Framing rpc.Framing
	Record  io.Writer            // every frame in both directions, when not nil
	OffLoop func() (done func()) // around each run off the read loop (LoopProcs.Hook)
	Log     zerolog.Logger
}

// ServeStdio serves one host on stdin and stdout until EOF, a terminating signal or an exit, then
// flushes every session within ShutdownGrace.
func ServeStdio(ctx context.Context, srv *handlers.Server, stdin io.Reader, stdout io.Writer, o StdioOptions) {
	conn := rpc.NewConn(stdin, stdout, rpc.Options{Framing: o.Framing, Logger: o.Log, Record: o.Record, ParamsReaders: handlers.ParamsReaders(), OffLoop: o.OffLoop})
	srv.SetHost(connHost{conn})

	ctx, stop := terminating(ctx)
	defer stop()
	conn.Serve(ctx, srv.HandleConn)
	select {
	case <-conn.Stopped(): // EOF: the host is gone, whatever a handler is doing
	case <-ctx.Done():
	case <-srv.Exited():
	}
	flush, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(flush); err != nil {
		o.Log.Warn().Err(err).Msg("exit before every write finished")
	}
	awaitHandler(conn, flush)
	_ = conn.Close()
	o.Log.Info().Msg("saverd stopped")
}

// terminating is ctx, cancelled by any signal that asks the daemon to end: SIGTERM, SIGINT and SIGHUP
// (the terminal or the host's session went away). Each is a graceful shutdown that flushes every
// session's registry; left to Go's default, SIGHUP killed the daemon with decisions unwritten.
//
// SIGPIPE is taken too, but only so that a write to a closed stdout fails with EPIPE instead of killing
// the process: the failed write ends the connection, and the daemon flushes and exits as it does at EOF.
// (It must not end the daemon by itself: a socket client hanging up raises it too.)
func terminating(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	go func() {
		for {
			select {
			case <-pipe:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(pipe)
		stop()
	}
}

// awaitHandler gives a handler still running (a decision being written, say) what is left of the
// shutdown grace to finish, so the daemon never exits in the middle of a write it could have completed,
// nor waits on one that hangs. With none running it returns at once: after `exit` the read loop sits in
// a read of stdin the host still holds open, so the connection is never done by itself.
func awaitHandler(conn *rpc.Conn, grace context.Context) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for conn.Busy() {
		select {
		case <-conn.Done():
			return
		case <-grace.Done():
			return
		case <-tick.C:
		}
	}
}
