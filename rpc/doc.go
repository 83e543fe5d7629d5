// Package rpc is saverd's wire: JSON-RPC 2.0 over a byte stream (the
// daemon's stdin/stdout), built on go.lsp.dev/jsonrpc2.
//
// jsonrpc2 v0.10.0 supplies the call/reply bookkeeping, but several of its
// behaviours must not reach saverd's users, so this package wraps them:
//
//   - A malformed frame makes a jsonrpc2 Stream return an error, which ends
//     the connection. Our stream never does that: it answers the frame itself
//     (-32700 parse error, or -32600 invalid request, with id null when the id
//     cannot be trusted) and reads on.
//   - A notification handler error ends a jsonrpc2 connection and a handler
//     panic crashes the process. Every handler is wrapped: panics are
//     recovered and logged with their stack, calls are answered -32603, and
//     notification failures are only logged.
//   - jsonrpc2 closes the connection by closing the stream and waits for its
//     read to return, which never happens on a raw blocking stdin. Our stream
//     reads on a separate goroutine, so stopping does not wait for a blocked
//     Read; the input is never closed by this package.
//   - jsonrpc2 only represents int32 or non-empty string ids (an id such as
//     1e12 ends its connection, "" is answered as 0) and re-encodes params
//     and results with its own JSON library. So jsonrpc2 is handed ids,
//     methods and errors only: the peer's ids are echoed back verbatim, and
//     params and results reach handlers and callers verbatim (ledger.go).
//   - A pending jsonrpc2 Call waits forever once the peer hangs up, and its
//     read loop blocks forever on a duplicated reply. Our Call fails as soon
//     as the connection ends, and only the first reply to a pending call is
//     delivered.
//   - A jsonrpc2 handler error followed by a read error panics (two error
//     types stored in one atomic.Value). Our handlers never return one.
//
// Frames are newline-delimited JSON by default, or LSP-style
// "Content-Length: N\r\n\r\n" framing, detected from the first bytes of the
// input. Requests are handled one at a time, in wire order, on the read
// goroutine; outgoing Calls and Notifies may come from any goroutine.
//
// Nothing is ever written to the output except frames; diagnostics go to
// the zerolog.Logger given in Options.
package rpc
