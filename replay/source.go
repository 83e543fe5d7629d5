package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
)

// Source is what Play plays: the host's requests in order, and its answers to model.fork, all of them
// known before the first request plays. Open makes one of a recording, Script.Source of a script built
// in memory.
type Source interface {
	forkReplies() []forkReply
	// next is the next request (entryRequest) or frame that did not parse (entryMalformed), good until
	// the next call; false at the end, or when reading failed (err says).
	next() (*entry, bool)
	err() error
}

// Source is a Source playing sc from its first request.
func (sc *Script) Source() Source { return &scriptCursor{sc: sc} }

type scriptCursor struct {
	sc  *Script
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

// Open checks the whole recording in f (name is how errors name it), and answers what plays it: a regular file in two passes
// (scanFile), so what a replay holds does not grow with the recording's length; anything else (a pipe,
// which reads once) read whole.
func Open(f *os.File, name string) (Source, error) {
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
	return sc.Source(), nil
}

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

// Script is a recording held whole: the host's requests in order, and the host's answers to
// model.fork. A recording in a regular file is played without one (see scanFile); a pipe makes one, and
// the demo builds one (Request, ForkReply).
type Script struct {
	requests  []request
	malformed map[int]string // position in requests → the raw text of a frame that did not parse
	forks     []forkReply
}

// Request adds a request the host sends: a call with id, a notification when id is nil.
func (sc *Script) Request(method string, id, params json.RawMessage) {
	r := request{wireMsg: wireMsg{JSONRPC: "2.0", ID: id, Method: method, Params: params}}
	r.sessionID, r.at = peekParams(params)
	sc.requests = append(sc.requests, r)
}

// ForkReply adds the host's answer to a model.fork call made for purpose ("" answers the next call of
// any purpose): the id it answered and its result.
func (sc *Script) ForkReply(purpose string, id, result json.RawMessage) {
	sc.forks = append(sc.forks, forkReply{purpose: purpose, msg: wireMsg{JSONRPC: "2.0", ID: id, Result: result}})
}

// Requests is how many requests sc holds.
func (sc *Script) Requests() int { return len(sc.requests) }

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
func readScript(r io.Reader, name string) (*Script, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	data := buf.Bytes()
	sc := &Script{malformed: map[int]string{}, requests: make([]request, 0, bytes.Count(data, []byte{'\n'})+1)}
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
func (sc *Script) add(text []byte, forkIDs map[string]string) error {
	e, err := readLine(text, forkIDs)
	if err != nil {
		return err
	}
	sc.push(e)
	return nil
}

func (sc *Script) push(e entry) {
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
