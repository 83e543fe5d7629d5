// Package state is saverd's pure session core: the types a session is made of, the ledger that turns
// one tool call into one row, the reducer that applies every event to a session, the settlements that
// credit or requeue a decision, the per-project pattern registry, the lasting rules, and the views the
// band and the pane draw.
//
// It is a port of ContextSaver's core/ (the TypeScript seed) and it stays pure: no I/O, no clock, no
// goroutines, no logging. Time, file contents and the model's text come in as arguments; the daemon
// (handlers/) sequences events and talks to the world. A test enforces that state imports none of
// rpc/, handlers/ or impact/.
//
// Mutation rule. Reduce changes a *State in place, because the daemon applies tens of thousands of
// events a second and a full session holds ROW_CAP rows: copying the ledger per event is not an option.
// To keep Clone cheap, the reducer only ever appends to the slices Clone shares (Rows, Notes, Standing,
// Written, Asks, Compactions, Delivery.Agents, a pattern's Hits, a run's Phases) or replaces them
// with freshly allocated ones; it never writes inside their current length. The slices it does edit in
// place (Patterns, Loops, Turns, Runs, Cards) and the Folded map are copied by Clone.
package state
