// Package agentlog reads what the coding agents already write to disk — Claude Code's transcripts (with
// their subagents' transcripts) and Codex's rollout files — and turns each session into a Record in the
// sessions schema impact reads (protocol.md, "Sessions JSONL"), with tokens by kind and model and the cost
// of every call at the price in force on its date.
//
// Files are streamed line by line with a bound on a line's length: a line over the bound, a malformed
// line, a truncated last line (a session still being written) and a binary file are reported with the file
// and line and skipped, and the rest is counted. Scan reads many files in parallel, bounded by the CPU
// count, and counts an API call that several transcripts copy (a forked session's history) once.
package agentlog
