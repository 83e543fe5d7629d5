// Package detect names wasteful habits that need no model to see: what the ledger's rows alone show.
// Each detector returns findings shaped as a judge's are (state.Finding: a `<category>:<slug>` id, a
// `Claude keeps …` kind, the rows it cites as evidence, a (tool, key) signature, why, the fix), so a
// detector's finding can become a card as a judge's does, plus what the cited waste measurably took.
//
// The detectors, each precise before it is broad — when the rows cannot tell a waste from its
// legitimate look-alike, it says nothing:
//
//   - rerun: a check (test, lint, format, typecheck, build, install) run again with the same key in the
//     same turn by the same loop, with nothing between that changed a file: no edit, no command that may
//     write (an install, a formatter, `git checkout`, any command the ledger cannot classify), no agent
//     that edited. A retry after a failure or a timeout is excused once.
//   - reread: a file read whole again (no offset, no limit) in the same turn by the same loop, with no
//     edit or write to it between and no compaction in that turn. A harness that answers an unchanged
//     re-read with a stub (`dedup`) makes every other re-read one of a changed file: then none fires.
//   - suite: the whole test suite run after an edit to one file, twice or more, when the runner can run
//     that file's test alone and the session shows which test that is (the edited file is a test, or a
//     test file with its name was read, edited or run). The first run of the session and the run right
//     before a commit are excused.
//   - output: a listing, an installer's log or a log dump of RowOutputMin characters or more from a
//     command that a flag would have cut (`find` without `-maxdepth`, `tree` without `-L`, `ls -R`, an
//     installer without its quiet flag, `docker logs` without `--tail`, `git log` without a count…),
//     when the command was not already filtered.
//   - search: the same search (Grep or Glob with the same whole input, or the same `grep`/`rg`/`find`
//     command) again in the same turn by the same loop, with nothing changed between.
//
// Repeats is the audit's REPEATED CALLS: true repeats only, edits apart, each repeat told whether
// something it depends on changed before it.
//
// The package is pure, as state is: no I/O, no clock, no goroutines, no logging.
package detect
