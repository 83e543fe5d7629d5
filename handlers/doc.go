// Package handlers is saverd's JSON-RPC methods: the adapter over the session API (package session). It
// keeps the method table (server.go), decodes each method's params (the values no host can mean are the
// API's to refuse: session/params_check.go), reads tool.call's and a hook's params in the frame's own pass
// (tool_call_wire.go, hook_wire.go: rpc.Options.ParamsReaders), makes one call of the session API, and
// answers its result, or its error with the code protocol.md's "Errors" gives it (errors.go). What a
// method does to a session is session's; here is only how the wire reaches it: tool.call's rpc.Then
// (the answer before the recording), impact's rpc.Later, the hook's harness and payload, the
// `shutdown` and `exit` of the connection.
package handlers
