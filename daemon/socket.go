package daemon

import (
	"context"
	"errors"
	"net"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
)

// SocketOptions are the socket daemon's settings.
type SocketOptions struct {
	Path      string        // the socket
	IdleExit  time.Duration // exit after this long with nothing connected and nothing asked; 0 never
	FrameWait time.Duration // how long a frame, once begun, may wait for the rest of its bytes
	Log       zerolog.Logger
}

// ServeSocket is `saverd serve --listen PATH`: the user's one shared daemon. Every connection is its own
// JSON-RPC connection (hooks connect once per event; an editor stays); sessions outlive them all. It
// exits on SIGTERM/SIGINT/SIGHUP, or after IdleExit with nothing connected and nothing asked,
// flushing every session first. Its exit code: 0, or 1 when it cannot listen.
func ServeSocket(ctx context.Context, srv *handlers.Server, o SocketOptions) int {
	log := o.Log
	ln, err := rpc.Listen(o.Path)
	if errors.Is(err, rpc.ErrRunning) {
		log.Info().Str("socket", o.Path).Msg("a daemon already serves this socket; exiting")
		return 0
	}
	if err != nil {
		log.Error().Err(err).Msg("cannot listen")
		return 1
	}
	ln.Refused = func(uid int) { log.Warn().Int("uid", uid).Msg("refused a connection from another user") }
	h := newHub(log)
	srv.SetHost(h)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	log.Info().Str("socket", o.Path).Msg("saverd listening")

	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go idleWatch(ctx, cancel, h, o.IdleExit, log)
	acceptAll(ctx, ln, h, srv, o)
	flush, done := context.WithTimeout(context.Background(), ShutdownGrace)
	defer done()
	srv.FlushAll()
	if err := srv.Shutdown(flush); err != nil {
		log.Warn().Err(err).Msg("exit before every write finished")
	}
	log.Info().Msg("saverd stopped")
	return 0
}

// acceptAll serves each connection the listener accepts on a goroutine of its own, until the listener is
// closed (the daemon stopping) or fails for good.
func acceptAll(ctx context.Context, ln *rpc.Listener, h *hub, srv *handlers.Server, o SocketOptions) {
	log := o.Log
	var conns sync.WaitGroup
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				break
			}
			if acceptFull(err) {
				// Out of file descriptors (too many clients at once, or a limit set low): the clients
				// already connected are served on, and accepting resumes as they leave, as net/http does.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				log.Warn().Err(err).Dur("retry", backoff).Msg("accept failed; retrying")
				time.Sleep(backoff)
				continue
			}
			log.Error().Err(err).Msg("accept failed; stopping")
			break
		}
		backoff = 0
		conns.Add(1)
		h.opened()
		go func() {
			defer conns.Done()
			serveConn(ctx, nc, h, srv, o.FrameWait, log)
		}()
	}
}

// DefaultFrameWait is how long a socket connection's frame, once begun, may wait for the rest of its
// bytes (rpc.Options.FrameTimeout): a hook writes its whole payload at once, 96 MB in well under a second,
// so a frame still unfinished after this was abandoned, and what the daemon read of it is let go.
const DefaultFrameWait = 30 * time.Second

// writeWait is how long a write to a socket connection may wait for its peer to read. Notifications go to
// every host in turn, on the goroutine that made them (a session's event, a hook's): a host that stopped
// reading once held them all, and every hook behind them, for good. Past this its connection is closed,
// so a stuck host costs the others one wait, once; a host that reads, however busy, never waits this long.
const writeWait = 5 * time.Second

// deadlineWriter is a connection's output, each write bounded by writeWait.
type deadlineWriter struct{ net.Conn }

func (w deadlineWriter) Write(p []byte) (int, error) {
	_ = w.SetWriteDeadline(time.Now().Add(writeWait))
	return w.Conn.Write(p)
}

// serveConn serves one connection until the peer hangs up or the daemon stops.
func serveConn(ctx context.Context, nc net.Conn, h *hub, srv *handlers.Server, frameWait time.Duration, log zerolog.Logger) {
	conn := rpc.NewConn(nc, deadlineWriter{nc}, rpc.Options{Logger: log, ParamsReaders: handlers.ParamsReaders(), FrameTimeout: frameWait})
	defer h.closed(conn)
	conn.Serve(ctx, h.handler(conn, srv.HandleConn, srv.FlushAll))
	<-conn.Done()
	if err := conn.Err(); errors.Is(err, rpc.ErrFrameStalled) {
		// What the frame held (up to the frame's bound) is garbage now: given back to the system at once,
		// not kept by the runtime for a heap that no longer needs it.
		log.Warn().Err(err).Msg("connection closed mid-frame")
		debug.FreeOSMemory()
	} else if err != nil {
		log.Info().Err(err).Msg("connection closed")
	}
	nc.Close()
}

// idleWatch stops the daemon after limit with no connection open and no request answered.
func idleWatch(ctx context.Context, stop context.CancelFunc, h *hub, limit time.Duration, log zerolog.Logger) {
	if limit <= 0 {
		return
	}
	tick := time.NewTicker(min(limit/4+time.Millisecond, 30*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if idle, open := h.idleFor(); !open && idle >= limit {
				log.Info().Dur("idle", idle).Msg("idle; exiting")
				stop()
				return
			}
		}
	}
}

// acceptFull reports an accept that failed for want of a resource that frees again (file descriptors,
// kernel buffers) or for a client that gave up: none of them ends the listener.
func acceptFull(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOBUFS) ||
		errors.Is(err, syscall.ENOMEM) || errors.Is(err, syscall.ECONNABORTED)
}
