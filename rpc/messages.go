package rpc

import (
	"encoding/json"
	"strconv"
)

// The messages a stream reads and writes. They are the closed set jsonrpc2 defines — a call, a
// notification, a response — held the way saverd needs them: jsonrpc2's ID is an int32 or a non-empty
// string, so a peer's id such as 1e12 or "" cannot be echoed back, and its messages re-encode params and
// results with another JSON library. Here the peer's id and params stay the bytes it sent, and a result
// is encoded once, with encoding/json, by the connection.

// message is one of *request, *reply, *outCall, *outNotification or *response.
type message interface{ isMessage() }

// request is an incoming call (id set, "null" included) or notification (id nil).
type request struct {
	id     json.RawMessage // the peer's id, verbatim: echoed in the reply
	method string
	params json.RawMessage // nil when absent or null
	read   any             // what the method's ParamsReader made of params, or nil
}

// reply is the peer's answer to one of our calls.
type reply struct {
	id     int64 // our call's id, when idOK
	idOK   bool
	result json.RawMessage // nil when err is set
	err    error           // the peer's *Error, or why its reply is malformed
	// unmatched, when set, is the answer for an object that has no method, result or error: it is a
	// broken reply when its id is one of our pending calls (failing that call beats letting it hang),
	// and otherwise an invalid request, answered with this error to replyTo.
	unmatched *Error
	replyTo   json.RawMessage
}

// outCall is a request of ours to the peer.
type outCall struct {
	id     int64
	method string
	params json.RawMessage
}

// outNotification is a notification of ours to the peer.
type outNotification struct {
	method string
	params json.RawMessage
}

// response is our answer to an incoming call.
type response struct {
	id     json.RawMessage // the peer's, verbatim
	result json.RawMessage // encoded; empty means null
	err    *Error
	// now: answered off the read loop (a Later), so the frame is written at once rather than held for
	// the read loop's next flush (see stream.Write). flush: written at once too, with the replies held
	// before it, on the read loop (a Then's, whose rest comes before the next flush).
	now, flush bool
}

func (*request) isMessage()         {}
func (*reply) isMessage()           {}
func (*outCall) isMessage()         {}
func (*outNotification) isMessage() {}
func (*response) isMessage()        {}

// encodeRequest marshals an outgoing call (id > 0) or notification (id 0).
func encodeRequest(id int64, method string, params json.RawMessage) ([]byte, error) {
	out := &wireOut{JSONRPC: version, Method: method, Params: omitNull(params)}
	if id != 0 {
		out.ID = strconv.AppendInt(nil, id, 10)
	}
	return out.encode()
}

// omitNull drops a null params member: JSON-RPC allows params to be omitted but not to be null.
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
func appendResult(b, id, result []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}
