// Package intake turns what the hosts send into the core's types: a tool event and its result into one
// ledger row (its key, class, head, flags, lines and paths), a shell command into its class, a recovered
// transcript into rows (adopt), a subagent's answer into an outcome, a workflow journal into entries and
// a run's phases. It is the only part of state/ that reads loose JSON.
//
// It is pure, as the core is (see package state): no I/O, no clock, no goroutines, no logging.
package intake
