// Package store keeps the per-project pattern registry on disk: the daemon's replacement for
// ContextSaver's host key/value store, where the registry lived under state.StoreKey(cwd) as a JSON array.
//
// Layout. One file per key, <dir>/<first 16 hex digits of sha256(key)>.json, holding
// {"key": "<key>", "value": <value>}: the key is written out so a person can tell which project a file
// belongs to, and it is checked on read so a mangled file is never taken for another project's.
//
// Safety. Writes are atomic (internal/atomicfile: a temp file in the same directory, fsync, rename
// over, fsync the directory), so a reader never sees a half-written file and a crash leaves the old file whole.
// Read-merge-write runs under an exclusive flock on the store's one <dir>/registry.lock (opened without
// following a symlink), so two daemons (two processes, or two goroutines) deciding on one project lose
// nothing; Get takes a shared lock. A corrupt file — or one past MaxFileSize, or not a regular file —
// is moved aside to <file>.corrupt-<unixnano> and logged: the session starts empty, the daemon never
// stops over it.
//
// The package also keeps the journal of the rules saverd writes into a project (Journal, `/saver undo`).
package store
