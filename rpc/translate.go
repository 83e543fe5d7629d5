package rpc

import (
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// This file translates between wire frames and jsonrpc2 messages. Messages
// are built with jsonrpc2's constructors from frames we validated ourselves,
// so jsonrpc2's decoder (which fails the connection on anything odd) never
// sees peer input; params and results travel beside them (see ledger.go).

// accept turns one incoming frame into a message for jsonrpc2, or handles
// the frame itself (answering or dropping it) and returns nil.
func (s *stream) accept(f frame) jsonrpc2.Message {
	if f.bad != "" {
		s.rec.raw(f.data, f.truncated)
		s.log.Warn().Str("problem", f.bad).Msg("rpc: malformed frame")
		s.reject(nil, Errorf(CodeParseError, "parse error: %s", f.bad))
		return nil
	}
	w, perr := parseFrame(f.data)
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
		return s.reply(w)
	default:
		return s.neither(w)
	}
}

// request builds a call or notification, or rejects an invalid one.
func (s *stream) request(w *wireIn) jsonrpc2.Message {
	method, params, e := w.checkRequest()
	if e != nil {
		s.log.Warn().Str("problem", e.Message).Msg("rpc: invalid request")
		s.reject(w.replyID(), e)
		return nil
	}
	var msg jsonrpc2.Request
	if w.isNotification() {
		msg, _ = jsonrpc2.NewNotification(method, nil) // cannot fail: nil params
	} else {
		msg, _ = jsonrpc2.NewCall(s.inbox.call(w.ID), method, nil)
	}
	s.inbox.keepParams(msg, params)
	return msg
}

// reply builds the response to one of our calls, or drops a stray one.
func (s *stream) reply(w *wireIn) jsonrpc2.Message {
	result, err := w.checkReply()
	n, ok := ourCallID(w.ID)
	id := jsonrpc2.NewNumberID(n)
	if !ok || !s.outbox.settle(id, result) {
		// Delivering it could block jsonrpc2's read loop for good (see outgoing).
		s.log.Warn().RawJSON("id", w.replyID()).Msg("rpc: dropping a reply to no pending call")
		return nil
	}
	resp, _ := jsonrpc2.NewResponse(id, nil, err) // cannot fail: nil result
	return resp
}

// neither handles an object with no method, result or error: a broken reply
// if its id is one of our pending calls (failing that call beats letting it
// hang), otherwise an invalid request.
func (s *stream) neither(w *wireIn) jsonrpc2.Message {
	if n, ok := ourCallID(w.ID); ok {
		if id := jsonrpc2.NewNumberID(n); s.outbox.settle(id, nil) {
			_, err := w.checkReply()
			resp, _ := jsonrpc2.NewResponse(id, nil, err)
			return resp
		}
	}
	s.reject(w.replyID(), invalidRequest(`missing "method"`))
	return nil
}

// encode marshals a jsonrpc2 message for the wire, echoing the peer's own id
// in replies and noting the ids of our calls.
func (s *stream) encode(msg jsonrpc2.Message) ([]byte, error) {
	switch m := msg.(type) {
	case *jsonrpc2.Call:
		id := m.ID()
		raw, err := id.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("encoding call id: %w", err)
		}
		s.outbox.sent(id)
		return (&wireOut{JSONRPC: version, ID: raw, Method: m.Method(), Params: omitNull(m.Params())}).encode()
	case *jsonrpc2.Notification:
		return (&wireOut{JSONRPC: version, Method: m.Method(), Params: omitNull(m.Params())}).encode()
	case *jsonrpc2.Response:
		return s.encodeReply(m)
	default:
		return nil, fmt.Errorf("encoding message: unexpected type %T", msg)
	}
}

// encodeReply marshals our reply to an incoming call.
func (s *stream) encodeReply(m *jsonrpc2.Response) ([]byte, error) {
	call, ok := s.inbox.answered(m.ID())
	if !ok {
		return nil, fmt.Errorf("encoding reply: no incoming call with internal id %v", m.ID())
	}
	out := &wireOut{JSONRPC: version, ID: call.peerID}
	if e := AsError(m.Err()); e != nil {
		out.Error = e
	} else if out.Result = call.result; len(out.Result) == 0 {
		out.Result = jsonNull
	}
	if out.Error == nil && compactID(out.ID) {
		// The hot path, every tool.call: the result was encoded compact by marshal, so the frame is put
		// together as bytes rather than marshaled (and scanned) once more.
		return appendResult(out.ID, out.Result), nil
	}
	body, err := out.encode()
	if err != nil && out.Error != nil && out.Error.Data != nil {
		// The handler's error data would not marshal: send the error without it.
		s.log.Error().Err(err).Int64("code", out.Error.Code).Msg("rpc: dropping unencodable error data")
		out.Error = out.Error.WithData(nil)
		body, err = out.encode()
	}
	return body, err
}

// omitNull drops a null params member: JSON-RPC allows params to be omitted
// but not to be null, and jsonrpc2 turns absent params into null.
func omitNull(params json.RawMessage) json.RawMessage {
	if kindOf(params) == kindNull {
		return nil
	}
	return params
}

// compactID reports whether a peer's id can be copied into a frame as it is: a number or a string with
// no white space around or inside it (a string's own escapes are fine).
func compactID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	for _, c := range id {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			return false
		}
	}
	return true
}

// appendResult is the reply frame {"jsonrpc":"2.0","id":…,"result":…} for a compact id and result.
func appendResult(id, result []byte) []byte {
	b := make([]byte, 0, len(id)+len(result)+36)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}
