package rpc

import (
	"encoding/json"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// What jsonrpc2 cannot carry faithfully travels beside it, in these ledgers.
// jsonrpc2 re-encodes params and results with its own JSON library (which,
// among other things, HTML-escapes strings) and only represents int32 or
// non-empty string ids. So jsonrpc2 is given ids, methods and errors only;
// ids, params and results are kept here, verbatim.

// incoming tracks requests from the peer.
type incoming struct {
	mu     sync.Mutex
	next   int32
	calls  map[jsonrpc2.ID]*inCall              // by our id for the call
	params map[jsonrpc2.Request]json.RawMessage // request -> its params, until dispatched
}

// inCall is an incoming call awaiting its reply.
type inCall struct {
	peerID json.RawMessage // echoed in the reply
	result json.RawMessage // the handler's result, encoded
	late   bool            // answered off the read loop (a Later), so its reply is written at once
}

func newIncoming() *incoming {
	return &incoming{
		calls:  make(map[jsonrpc2.ID]*inCall),
		params: make(map[jsonrpc2.Request]json.RawMessage),
	}
}

// call registers the peer's id for an incoming call and returns ours.
func (t *incoming) call(peerID json.RawMessage) jsonrpc2.ID {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++ // wrapping is harmless: calls are answered one at a time
	id := jsonrpc2.NewNumberID(t.next)
	t.calls[id] = &inCall{peerID: peerID}
	return id
}

// keepResult holds the encoded result of call id until its reply is written.
func (t *incoming) keepResult(id jsonrpc2.ID, result json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.calls[id]; ok {
		c.result = result
	}
}

// markLate notes that call id is answered off the read loop.
func (t *incoming) markLate(id jsonrpc2.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.calls[id]; ok {
		c.late = true
	}
}

// isLate reports whether call id is answered off the read loop.
func (t *incoming) isLate(id jsonrpc2.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.calls[id]
	return ok && c.late
}

// answered returns call id and forgets it.
func (t *incoming) answered(id jsonrpc2.ID) (*inCall, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.calls[id]
	delete(t.calls, id)
	return c, ok
}

// keepParams holds req's params until its handler runs.
func (t *incoming) keepParams(req jsonrpc2.Request, params json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.params[req] = params
}

// takeParams returns req's params and forgets them.
func (t *incoming) takeParams(req jsonrpc2.Request) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	params := t.params[req]
	delete(t.params, req)
	return params
}

// outgoing tracks our calls to the peer. Only the first reply to a call
// still awaited is passed to jsonrpc2: its read loop blocks forever on a
// second reply to the same id.
type outgoing struct {
	mu      sync.Mutex
	pending map[jsonrpc2.ID]struct{}        // calls awaiting a reply
	results map[jsonrpc2.ID]json.RawMessage // results awaiting collection
}

func newOutgoing() *outgoing {
	return &outgoing{
		pending: make(map[jsonrpc2.ID]struct{}),
		results: make(map[jsonrpc2.ID]json.RawMessage),
	}
}

// sent records that call id awaits a reply.
func (t *outgoing) sent(id jsonrpc2.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending[id] = struct{}{}
}

// settle reports whether call id awaits a reply, and if so marks it replied
// and keeps its result (nil for an error reply) for collect.
func (t *outgoing) settle(id jsonrpc2.ID, result json.RawMessage) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.pending[id]; !ok {
		return false
	}
	delete(t.pending, id)
	if result != nil {
		t.results[id] = result
	}
	return true
}

// collect returns call id's result and forgets the call, whether it was
// answered or abandoned, so a late reply is dropped and nothing leaks.
func (t *outgoing) collect(id jsonrpc2.ID) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	result, ok := t.results[id]
	delete(t.results, id)
	delete(t.pending, id)
	return result, ok
}
