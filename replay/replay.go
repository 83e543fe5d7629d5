// Package replay plays a recording of a host's session (`saverd serve --record`), or any NDJSON of host
// requests, through a fresh daemon in-process: every request in order, the background work each one
// started run before the next, and model.fork answered from the host's recorded replies, so a recording
// plays back the same way every time. It prints every frame the daemon sends, as a live daemon would
// have sent them, and the session's views as text at the end. `saverd replay` and `saverd demo` are its
// commands; they keep the flags, the exit codes and the process's settings (cmd/saverd).
package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// Options say how a replay plays and what it prints.
type Options struct {
	// Version is the daemon's version, as initialize reports it.
	Version string
	// Show are the views printed as text at the end: band, pane, debug (ParseShow).
	Show []string
	// Width is the views' width in columns.
	Width int
	// Quiet prints only the final views, not the frames.
	Quiet bool
	// WriteRoot is where the rules the recording writes land (see session.Options.WriteRoot); "" writes
	// them at their recorded paths, which only `saverd replay --write` asks for.
	WriteRoot string
}

// host answers model.fork from the recorded replies in order and prints everything it is sent.
type host struct {
	mu    sync.Mutex
	out   *frameOut
	forks []forkReply
	calls int
}

func (h *host) Notify(method string, params any) { h.out.notify(method, params) }

func (h *host) Fork(_ context.Context, req session.ForkRequest) (*session.ForkResult, error) {
	h.mu.Lock()
	h.calls++
	id := h.calls // a number, as the live daemon's ids are
	var reply *wireMsg
	for i, f := range h.forks {
		if f.purpose == "" || f.purpose == req.Purpose {
			reply = &f.msg
			h.forks = append(h.forks[:i:i], h.forks[i+1:]...)
			break
		}
	}
	h.mu.Unlock()
	h.out.call(id, "model.fork", req)
	if reply == nil {
		return nil, nil // nothing recorded: a cold snapshot
	}
	if reply.Error != nil {
		return nil, reply.Error
	}
	return session.DecodeForkResult(reply.Result)
}

// Play runs src's requests through a fresh daemon in-process, one at a time, waiting after each for the
// background work it started, so a recording plays back the same way every time. It prints every frame
// the daemon sends to stdout (unless opt.Quiet), then the views opt.Show names, as they were before the
// recording ended the session. The error is reading src's (a file changed under the replay) or drawing
// a view's; what the daemon answers, errors included, is printed, not returned.
func Play(ctx context.Context, src Source, opt Options, stdout io.Writer) error {
	out := stdout
	if opt.Quiet {
		out = io.Discard
	}
	frames := newFrameOut(out)
	defer frames.flush()
	host := &host{out: frames, forks: src.forkReplies()}
	var clock int64
	srv := handlers.New(session.Options{Version: opt.Version, Log: zerolog.Nop(), Clock: func() int64 { return clock }, Synchronous: true,
		WriteRoot: opt.WriteRoot, OffLoop: frames.hold})
	srv.SetHost(host)
	lastSession := ""
	// final is the views as they were just before the recording ended the session (session.end,
	// shutdown, exit), which answers view.text no more; nil while the session is live.
	var final []byte
	for {
		e, ok := src.next()
		if !ok {
			break
		}
		if e.kind == entryMalformed {
			fe := rpc.FrameError([]byte(e.raw))
			if fe == nil {
				fe = rpc.NewError(rpc.CodeParseError, "parse error: "+snippet(e.raw))
			}
			frames.fail(nil, fe)
			continue
		}
		m := &e.req
		m.peek()
		if m.at != nil {
			clock = *m.at
		}
		if m.Method == "session.start" && m.sessionID != "" {
			lastSession, final = m.sessionID, nil
		}
		if final == nil && lastSession != "" && endsSession(m.Method, m.sessionID, lastSession) {
			var views bytes.Buffer
			if err := showViews(ctx, srv, lastSession, opt, &views); err != nil {
				return err
			}
			final = views.Bytes()
		}
		// As a live daemon does: the reply, then the background work the request started, then the rest
		// of its work (a tool.call's recording) and what that started, each printing what it sends.
		result, rest, err := handle(ctx, srv, m.wireMsg, m.read)
		switch {
		case len(m.ID) == 0:
		case err != nil:
			frames.fail(m.ID, rpc.AsError(err))
		default:
			frames.result(m.ID, result)
		}
		frames.release()
		runRest(rest)
		srv.Quiesce()
		frames.release()
	}
	if err := src.err(); err != nil {
		return err
	}
	frames.flush() // the views below go to stdout directly
	if final != nil {
		_, err := stdout.Write(final)
		return err
	}
	return showViews(ctx, srv, lastSession, opt, stdout)
}

// endsSession reports whether a request ends the session --show draws: after it, view.text answers
// `unknown sessionId` or `server shutting down`.
func endsSession(method, sessionID, shown string) bool {
	switch method {
	case "shutdown", "exit":
		return true
	case "session.end":
		return sessionID == shown
	}
	return false
}

// handle answers one request as the rpc layer would, a panic included: the reply, and the rest of the
// work a live daemon does once the reply is out (an *rpc.Then's; nil for most requests).
func handle(ctx context.Context, srv *handlers.Server, m wireMsg, read any) (result any, rest rpc.Rest, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, rest, err = nil, nil, rpc.InternalError("internal error: handler for %s panicked: %v", m.Method, r)
		}
	}()
	params := m.Params
	if string(params) == "null" {
		params = nil
	}
	result, err = srv.HandleConn(ctx, rpc.Request{Method: m.Method, Params: params, Notification: len(m.ID) == 0, Read: read})
	if t, ok := result.(*rpc.Then); ok && err == nil {
		result, rest = t.Result, t.Rest // read before the rest runs: it may hand the Then back to a pool
	}
	result, err = rpc.Settle(ctx, result, err)
	return result, rest, err
}

// runRest runs a request's rest after its reply; a panic in it is dropped, as the connection logs and
// drops one, the reply being out and the session rolled back.
func runRest(rest rpc.Rest) {
	if rest == nil {
		return
	}
	defer func() { _ = recover() }()
	rest.RunRest()
}

func showViews(ctx context.Context, srv *handlers.Server, sessionID string, opt Options, stdout io.Writer) error {
	if len(opt.Show) == 0 {
		return nil
	}
	if sessionID == "" {
		return errors.New("--show: the recording starts no session")
	}
	for _, view := range opt.Show {
		params, _ := json.Marshal(map[string]any{"sessionId": sessionID, "view": view, "width": opt.Width})
		res, err := srv.Handle(ctx, rpc.Request{Method: "view.text", Params: params})
		if err != nil {
			return fmt.Errorf("--show %s: %w", view, err)
		}
		if t, ok := res.(session.TextResult); ok && t.Text != nil {
			fmt.Fprintln(stdout, *t.Text)
		}
	}
	return nil
}

func snippet(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// ParseShow reads a --show flag: the views to print at the end, comma-separated.
func ParseShow(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var views []string
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		switch v {
		case "band", "pane", "debug":
			views = append(views, v)
		default:
			return nil, fmt.Errorf("--show: want band, pane or debug, got %q", v)
		}
	}
	return views, nil
}
