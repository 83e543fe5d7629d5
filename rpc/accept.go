package rpc

import (
	"bytes"
	"encoding/json"
)

// accept turns one incoming frame into a request or reply, or answers the frame itself (a parse
// error, an invalid request) and returns nil. Frames are validated here, so no decoder that would end
// the connection on anything odd ever sees the peer's input.
func (s *stream) accept(f frame) message {
	if f.bad != "" {
		s.rec.raw(f.data, f.truncated)
		s.log.Warn().Str("problem", f.bad).Msg("rpc: malformed frame")
		s.reject(nil, Errorf(CodeParseError, "parse error: %s", f.bad))
		return nil
	}
	w := &s.wire
	perr := parseFrame(f.data, w, s.readers)
	if f.borrowed && perr == nil && !(w.isRequest() && w.Read != nil) {
		// Only a request whose params its reader took whole is done with the frame's text by the next
		// read (and a frame answered with an error, here and now); anything else (params a handler
		// reads, a reply another goroutine takes) gets text of its own, its members moved onto a copy.
		own := bytes.Clone(f.data)
		w.moveTo(f.data, own)
		f.data, f.borrowed = own, false
	}
	if perr != nil && perr.Code == CodeParseError {
		s.rec.raw(f.data, false)
		s.frames.lost(f.data)
	} else {
		s.rec.in(f.data)
	}
	switch {
	case perr != nil:
		s.log.Warn().Str("problem", perr.Message).Msg("rpc: malformed frame")
		s.reject(nil, perr)
		return nil
	case w.isRequest():
		return s.request(w)
	case w.isReply():
		return w.reply()
	default:
		// No method, result or error: a broken reply if its id is one of our pending calls, which the
		// Conn knows; otherwise an invalid request.
		r := w.reply()
		r.unmatched, r.replyTo = invalidRequest(`missing "method"`), w.replyID()
		return r
	}
}

// request is a call or notification, or nil when it is invalid (and answered so).
func (s *stream) request(w *wireIn) message {
	method, params, e := w.checkRequest(s.req.method)
	if e != nil {
		s.log.Warn().Str("problem", e.Message).Msg("rpc: invalid request")
		s.reject(w.replyID(), e)
		return nil
	}
	s.req = request{method: method, params: params, read: w.Read}
	if !w.isNotification() {
		s.req.id = w.ID
	}
	return &s.req
}

// reply is w as the answer to one of our calls.
func (w *wireIn) reply() *reply {
	id, ok := ourCallID(w.ID)
	result, err := w.checkReply()
	return &reply{id: id, idOK: ok, result: result, err: err, replyTo: w.replyID()}
}

// moveTo points w's members that are slices of old at the same bytes of own, a copy of old; the others
// are a full decoder's, which copied them already.
func (w *wireIn) moveTo(old, own []byte) {
	for _, m := range []*json.RawMessage{&w.JSONRPC, &w.ID, &w.Method, &w.Params, &w.Result, &w.Error} {
		if len(*m) == 0 {
			continue
		}
		at := cap(old) - cap(*m) // where a slice of old starts in it
		if at < 0 || at+len(*m) > len(old) || &old[at] != &(*m)[0] {
			continue // a full decoder's: a copy already (both copy a RawMessage)
		}
		*m = own[at : at+len(*m) : at+len(*m)]
	}
}
