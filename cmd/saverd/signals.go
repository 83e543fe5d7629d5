package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/saverd/saverd/rpc"
)

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
