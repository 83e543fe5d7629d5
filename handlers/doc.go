// Package handlers is saverd's hook layer: one file per hook family, each doing in its method what the
// ContextSaver plugin did in the matching hook. It keeps the session table, applies every event to its
// session in wire order through the pure reducer in state/, starts judge and process runs in the
// background through the host's model fork, reads the journals and scripts ContextSaver read through its
// host, writes the lasting rules, and keeps the per-project registry in the store.
//
// Ordering: rpc delivers requests one at a time in wire order, and every change to a session happens
// under that session's lock, so a view sees every event sent before it. Background work (a fork, a
// journal read) never holds the lock while it waits; its result re-enters as one more ordered event.
//
// Panics: every state change goes through Session.apply (a tool call's row through Session.applyRow),
// which journals the action since the last snapshot. A handler that panics is rolled back by replaying the journal onto the snapshot, so the
// session is exactly as it was before the event that failed.
package handlers
