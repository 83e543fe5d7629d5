package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/rs/zerolog"
	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
)

// wireMsg is one JSON-RPC message as a recording holds it.
type wireMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpc.Error      `json:"error,omitempty"`
}

// own gives m copies of the members that may be slices of its line's text (one-pass reads leave them
// in place), for a line read into a buffer the next line reuses.
func (m *wireMsg) own() {
	m.ID, m.Params, m.Result = bytes.Clone(m.ID), bytes.Clone(m.Params), bytes.Clone(m.Result)
}

// recorded is one line of a --record file.
type recorded struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
	Raw *string         `json:"raw"`
}

// script is a recording read whole: the host's requests in order, and the host's answers to model.fork.
// A recording in a regular file is played without one (see scanFile); a pipe, or the demo, makes one.
type script struct {
	requests  []request
	malformed map[int]string // position in requests → the raw text of a frame that did not parse
	forks     []forkReply
}

// forkReply is one recorded answer to model.fork, with the purpose of the call it answered when the
// recording shows it ("" when it does not).
type forkReply struct {
	purpose string
	msg     wireMsg
}

// readScript reads a recording, or any NDJSON of host requests, that is not a regular file (a pipe, the
// demo's script; a regular file is read in two passes, scanFile). The whole text is read into one
// buffer that the requests point into, and their list is made as long as the text has lines, so
// reading a long recording neither copies each line nor grows the list as it goes.
func readScript(r io.Reader, name string) (*script, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	data := buf.Bytes()
	sc := &script{malformed: map[int]string{}, requests: make([]request, 0, bytes.Count(data, []byte{'\n'})+1)}
	forkIDs := map[string]string{}
	for line := 1; len(data) > 0; line++ {
		text := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			text, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		if text = bytes.TrimSpace(text); len(text) > 0 {
			if err := sc.add(text, forkIDs); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
	}
	return sc, nil
}

// scriptLine is a line of either kind at once, so the common line is decoded in one pass (with the fast
// decoder the rpc layer uses for params); a line it cannot take is read again the long way, whose errors
// name what is wrong.
type scriptLine struct {
	Dir string   `json:"dir"`
	Msg *wireMsg `json:"msg"`
	Raw *string  `json:"raw"`
	wireMsg
}

// request is one of the host's requests, with the two params fields the replay itself reads.
type request struct {
	wireMsg
	sessionID string
	at        *int64
	// unread: params a one-pass reader takes (tool.call's), whose sessionId and at are read with them
	// as the request is handled (peek), so they are read once, as the daemon reads a frame.
	unread bool
	read   any // what the reader made of them, for the handler (rpc.Request.Read)
}

// peek fills r's sessionId and at, when they were left for the request's own read; once, however often
// it is called (a source may peek a request before play does).
func (r *request) peek() {
	if !r.unread {
		return
	}
	var ok bool
	if r.read, r.sessionID, r.at, ok = handlers.ReadParams(r.Method, r.Params); !ok {
		r.sessionID, r.at = peek(r.Params)
	}
	r.unread = false
}

// add reads one line into sc.
func (sc *script) add(text []byte, forkIDs map[string]string) error {
	e, err := readLine(text, forkIDs)
	if err != nil {
		return err
	}
	sc.push(e)
	return nil
}

func (sc *script) push(e entry) {
	switch e.kind {
	case entryRequest:
		sc.requests = append(sc.requests, e.req)
	case entryMalformed:
		sc.malformed[len(sc.requests)] = e.raw
		sc.requests = append(sc.requests, request{})
	case entryFork:
		sc.forks = append(sc.forks, e.fork)
	}
}

// peekParams is the sessionId and at of a request's params, as far as they read: the replay's clock
// and the session --show draws. A decode that fails partway keeps what it read before, as
// encoding/json does, so the slow decoder answers whatever the fast one refuses.
func peekParams(params json.RawMessage) (string, *int64) {
	var p struct {
		SessionID string `json:"sessionId"`
		At        *int64 `json:"at"`
	}
	if len(params) == 0 {
		return "", nil
	}
	if fastjson.Unmarshal(params, &p) != nil {
		p.SessionID, p.At = "", nil
		_ = json.Unmarshal(params, &p)
	}
	return p.SessionID, p.At
}

// replayHost answers model.fork from the recorded replies in order and prints everything it is sent.
type replayHost struct {
	mu    sync.Mutex
	out   *frameOut
	forks []forkReply
	calls int
}

func (h *replayHost) Notify(method string, params any) { h.out.notify(method, params) }

func (h *replayHost) Fork(_ context.Context, req handlers.ForkRequest) (*handlers.ForkResult, error) {
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
	return decodeFork(reply.Result)
}

type replayOptions struct {
	show  []string
	width int
	quiet bool // print only the final views
	// writeRoot is where the rules the recording writes land (see handlers.Options.WriteRoot); "" writes
	// them at their recorded paths, which only --write asks for.
	writeRoot string
}

// source is what play plays: the host's requests in order, and its answers to model.fork, all of them
// known before the first request plays.
type source interface {
	forkReplies() []forkReply
	// next is the next request (entryRequest) or frame that did not parse (entryMalformed), good until
	// the next call; false at the end, or when reading failed (err says).
	next() (*entry, bool)
	err() error
}

// cursor is a source playing sc.
func (sc *script) cursor() *scriptCursor { return &scriptCursor{sc: sc} }

type scriptCursor struct {
	sc  *script
	pos int
	at  entry
}

func (c *scriptCursor) forkReplies() []forkReply { return c.sc.forks }

func (c *scriptCursor) err() error { return nil }

func (c *scriptCursor) next() (*entry, bool) {
	if c.pos == len(c.sc.requests) {
		return nil, false
	}
	i := c.pos
	c.pos++
	if raw, bad := c.sc.malformed[i]; bad {
		c.at = entry{kind: entryMalformed, raw: raw}
	} else {
		// A copy, which play peeks: the script stays as it was read.
		c.at = entry{kind: entryRequest, req: c.sc.requests[i]}
	}
	return &c.at, true
}

// play runs the requests through a fresh daemon in-process, one at a time, waiting after each for the
// background work it started, so a recording plays back the same way every time.
func play(ctx context.Context, src source, opt replayOptions, stdout io.Writer) error {
	out := stdout
	if opt.quiet {
		out = io.Discard
	}
	frames := newFrameOut(out)
	defer frames.flush()
	host := &replayHost{out: frames, forks: src.forkReplies()}
	var clock int64
	srv := handlers.New(handlers.Options{Version: version, Log: zerolog.Nop(), Clock: func() int64 { return clock }, Synchronous: true,
		WriteRoot: opt.writeRoot, OffLoop: frames.hold})
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

func showViews(ctx context.Context, srv *handlers.Server, sessionID string, opt replayOptions, stdout io.Writer) error {
	if len(opt.show) == 0 {
		return nil
	}
	if sessionID == "" {
		return errors.New("--show: the recording starts no session")
	}
	for _, view := range opt.show {
		params, _ := json.Marshal(map[string]any{"sessionId": sessionID, "view": view, "width": opt.width})
		res, err := srv.Handle(ctx, rpc.Request{Method: "view.text", Params: params})
		if err != nil {
			return fmt.Errorf("--show %s: %w", view, err)
		}
		if t, ok := res.(handlers.TextResult); ok && t.Text != nil {
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

func parseShow(s string) ([]string, error) {
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
	views, err := parseShow(*show)
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
	tuneGC() // the daemon's own collector settings: a replay plays through it as serve does
	name := files[0]
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	defer f.Close()
	src, err := openSource(f, name)
	if err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	opt := replayOptions{show: views, width: *width}
	if !*write {
		root, err := os.MkdirTemp("", "saverd-replay-")
		if err != nil {
			fmt.Fprintln(stderr, "saverd replay:", err)
			return 1
		}
		defer os.RemoveAll(root)
		opt.writeRoot = root
	}
	if err := play(ctx, src, opt, stdout); err != nil {
		fmt.Fprintln(stderr, "saverd replay:", err)
		return 1
	}
	return 0
}

// openSource checks the whole recording in f, and answers what plays it: a regular file in two passes
// (scanFile), so what a replay holds does not grow with the recording's length; anything else (a pipe,
// which reads once) read whole.
func openSource(f *os.File, name string) (source, error) {
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		fs, err := scanFile(f, name, lineBuffer)
		if err != nil {
			return nil, err
		}
		return fs, nil
	}
	sc, err := readScript(f, name)
	if err != nil {
		return nil, err
	}
	return sc.cursor(), nil
}

// callID is a message id as the live daemon matches a reply to its call: the number 7 and the string
// "7" are one id.
func callID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if _, err := strconv.ParseUint(s, 10, 63); err == nil {
			return s
		}
		return string(raw)
	}
	return string(bytes.TrimSpace(raw))
}
