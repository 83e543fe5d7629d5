// Package impact links coding-agent sessions to the git commits they produced
// and summarises what each repository and harness got for its money.
//
// It implements the linking rules L-scan to L-cost that protocol.md lists: sessions
// come from JSONL files, commits from one streamed `git log` per repository
// (the git binary, never a reimplementation), and commit_link decisions from
// an append-only decisions.jsonl written by [Decide].
//
// A commit carrying an agent trailer (see [AgentTrailers]) links with
// certainty to a session of that harness whose time window holds it; a
// commit by a local author without a trailer only makes the session a
// candidate ("window" link) that waits for a decision. [Query] returns the
// linked and pending records with a cost summary; problems with single inputs
// (a bad line, a path that is not a repository, an unreadable decisions file)
// become warnings so that every other repository is still reported.
package impact
