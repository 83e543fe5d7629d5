// Package state is saverd's pure session core: the types a session is made of, the actions and the
// reducer that applies every event to a session, the loops and rows it keeps, the settlements that credit
// or requeue a decision, the decisions themselves, the per-project pattern registry, and the evidence,
// budget and money arithmetic they share.
//
// Around it, each in its own package: state/intake turns what the hosts send into rows and actions;
// state/view draws the band, the pane and the debug dump from a State without changing it; state/rules
// writes the lasting rules; state/judge builds the judges' prompts and reads their replies; state/demo is
// the sample session. The core imports none of them (TestLayering checks it).
//
// The core stays pure: no I/O, no clock, no goroutines, no logging. Time, file contents and the model's
// text come in as arguments; the daemon (session/) sequences events and talks to the world. A test
// enforces that state imports none of rpc/, handlers/, session/ or impact/.
//
// Mutation rule. Reduce changes a *State in place, because the daemon applies tens of thousands of
// events a second and a full session holds ROW_CAP rows: copying the ledger per event is not an option.
// To keep Clone cheap, the reducer only ever appends to the slices Clone shares (Rows, Notes, Standing,
// Written, Asks, Compactions, Delivery.Agents, a pattern's Hits, a run's Phases) or replaces them
// with freshly allocated ones; it never writes inside their current length. The slices it does edit in
// place (Patterns, Loops, Turns, Runs, Cards) and the Folded map are copied by Clone; the Probed and
// Rewrites maps are never written in place but replaced (withKey), so Clone shares them. A pattern's
// signature is set when the pattern is made and never edited in place: the reducer's index of the
// patterns by signature key is checked only against the Patterns slice itself. Reduce returns
// what the action did (Effects), so a caller never compares the state before and after it.
//
// Snapshots. The daemon's rollback snapshot is made by Snapshot (snapshot.go), which brings the previous
// snapshot up to date rather than copying the loops again, and keeps no folded records: ResumeFrom
// undoes the writes made to the live ones since. The reducer changes a loop only through withLoop and
// the folded records only through foldRows, capFolded and the map's replacement (capRows, resetState),
// and those tell the state's tracking what they change. A new in-place edit of either must go through
// them too (TestSnapshotIsClone resumes snapshots and compares them with clones across the caps).
package state
