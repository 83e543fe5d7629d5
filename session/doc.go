// Package session is saverd's sessions and their ordered events, under the JSON-RPC methods and the hook
// bridge that call it (handlers): the table of sessions and their lifecycle (start, a hook's join and
// rejoin, idle eviction, flush), each event applied through the pure reducer in state/, the judges and
// their runs in the background through the host's model fork, the budget, money and prices, the
// per-project registry, the lasting rules written (confined, journaled for undo), the detectors at a
// turn's end, what is delivered to the agent, the journals and scripts ContextSaver read through its
// host, and impact's queries.
//
// Its API is named and typed, for a test or a caller that holds no JSON: Table.SessionStart,
// Table.CallOf with Session.ToolCall (or Session.OwesNothing and Session.Record, the answer first),
// Table.TurnComplete, Table.CommandRun, Table.UIAction, Table.Hook (one harness hook, its payload read by
// bridge), Table.Statusline, Table.Impact, and the views. The params and results carry their JSON names
// (protocol.md), so the adapter decodes straight into them; they live here, not in a protocol package of
// their own, because the API is their only user. Errors are Error, by Kind (a value no host can mean is
// refused here, params_check.go, not by the adapter); the adapter answers each kind with its wire code,
// and session links nothing of rpc or handlers (deps_test.go).
//
// Ordering: the adapter calls the API in wire order, and every change to a session happens under that
// session's lock, as one ordered event (Session.event), so a view sees every event sent before it. A hook
// is one event: what it reads of a log is read before the lock. Background work (a fork, a journal read)
// never holds the lock while it waits; its result re-enters as one more ordered event.
//
// Panics: every state change goes through Session.apply (a tool call's row through Session.applyRow),
// which journals the action since the last snapshot. An event that panics is rolled back by replaying
// the journal onto the snapshot, so the session is exactly as it was before the event that failed.
package session
