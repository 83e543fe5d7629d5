// Package rpc is saverd's wire: JSON-RPC 2.0 over a byte stream (the
// daemon's stdin/stdout, or one connection of its Unix socket).
//
// A Conn is one connection: a stream (stream.go) that reads and writes one
// message at a time, in the shape of a go.lsp.dev/jsonrpc2 Stream, a read
// loop that hands each request to the handler and each reply to the call of
// ours it answers (calls.go), and the handler's composition (handler.go).
// The socket daemon opens one Conn per accepted connection.
//
// The messages and the loop are this package's own, not jsonrpc2 v0.10.0's,
// because what hosts rely on cannot pass through it:
//
//   - Its ID is an int32 or a non-empty string: an id such as 1e12 ends its
//     connection and "" is answered as 0. The peer's id is echoed back here
//     byte for byte.
//   - It re-encodes params and results with its own JSON library. Here
//     params reach handlers verbatim and a result is encoded once, with
//     encoding/json.
//   - A malformed frame makes its Stream fail, which ends the connection.
//     Our stream answers the frame (-32700 parse error, or -32600 invalid
//     request, with id null when the id cannot be trusted) and reads on.
//   - A notification handler's error ends its connection and a handler panic
//     crashes the process. Here panics are recovered and logged with their
//     stack, calls are answered -32603, and notification failures are only
//     logged.
//   - It closes a connection by closing the stream and waiting for its read
//     to return, which never happens on a raw blocking stdin. Stopping here
//     does not wait for a blocked Read; the input is never closed by this
//     package.
//   - Its pending Call waits forever once the peer hangs up, and its read
//     loop blocks for good on a duplicated reply. Our Call fails as soon as
//     the connection ends, and only the first reply to a pending call is
//     delivered.
//
// jsonrpc2 supplies the standard error codes (errors.go). The daemon's own
// codes (an unknown session, shutting down, a failed request) are its
// methods' business and live in package handlers.
//
// Frames are newline-delimited JSON by default, or LSP-style
// "Content-Length: N\r\n\r\n" framing, detected from the first bytes of the
// input. Requests are handled one at a time, in wire order, on the read
// goroutine, except that a handler may return a Later, which is worked out on
// a goroutine of its own while the loop reads on, or a *Then, whose reply is
// written before the rest of its work runs (still before the next request is
// read); a handler's context ends when the connection stops. Outgoing Calls and Notifies may come from any
// goroutine. Frames are decoded with a fast decoder first (every tool.call
// carries a tool's whole output), and with encoding/json only to word what is
// wrong with a frame it refused.
//
// Nothing is ever written to the output except frames; diagnostics go to
// the zerolog.Logger given in Options.
package rpc
