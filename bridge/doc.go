// Package bridge turns an agent harness's hook payloads (Claude Code's, and Codex's, which share their
// shape) into what the daemon's session methods take, and the daemon's answers back into the JSON the
// harness reads from a hook's standard output. It also holds what a harness package's readers of a live
// session's log share: a turn's Usage, the bounded line reader that reads a turn's tail (EachLine), and
// the look for texts the context still holds (HeldTexts). protocol.md ("Hooks") has the mapping table.
//
// It knows nothing of sessions or of the wire: handlers/hook.go calls it, one payload at a time.
package bridge
