// Package agentlog is what every harness's log reader shares (harness/claude, harness/codex,
// harness/gemini, …): the session Record in the sessions schema impact reads (protocol.md, "Sessions
// JSONL"), with tokens by kind and model and the cost of every call at the price in force on its date;
// the bounded line reader the readers read their logs through; Scan, which reads many logs in parallel
// with their harness's Reader and counts an API call that several logs copy (a forked session's history)
// once; the audit's Transcript; and the daemon's own sessions and forks logs.
//
// Files are streamed line by line with a bound on a line's length: a line over the bound, a malformed
// line, a truncated last line (a session still being written) and a binary file are reported with the file
// and line and skipped, and the rest is counted.
package agentlog
