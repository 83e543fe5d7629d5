package rpc

import (
	"context"
	"fmt"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8IDIsNotEchoed: a string id holding invalid UTF-8 was echoed back raw, which made the
// reply itself invalid JSON text. The request is refused, answered with id null.
func TestInvalidUTF8IDIsNotEchoed(t *testing.T) {
	h := startHost(t, Options{}, echo)
	h.send("{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\xfeb\",\"method\":\"echo\",\"params\":[1]}\n")
	m := h.expectError("null", CodeInvalidRequest, `"id" must be valid UTF-8`)
	if !utf8.Valid(m.raw) {
		t.Fatalf("reply is not UTF-8: %q", m.raw)
	}
	h.send(afterEach)
	h.expectResult("99", "[99]")
}

// TestStringIDReplySettlesTheCall: a host answering our call 7 with id "7" left the call waiting out
// its whole timeout (ten minutes for a fork). The number spelled as a string is taken as ours.
func TestStringIDReplySettlesTheCall(t *testing.T) {
	h := startHost(t, Options{}, echo)
	ch := goCall(context.Background(), h.conn, "model.fork", nil)
	m := h.recv()
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"%s","result":"late"}`+"\n", m.ID))
	if r := waitCall(t, ch, waitFor); r.err != nil || string(r.raw) != `"late"` {
		t.Fatalf("Call = %s, %v", r.raw, r.err)
	}
}
