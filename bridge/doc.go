// Package bridge turns an agent harness's hook payloads (Claude Code's, and Codex's, which share their
// shape) into what the daemon's session methods take, and the daemon's answers back into the JSON the
// harness reads from a hook's standard output. It also reads the harness's transcript where a hook
// payload leaves something out: a turn's usage, the window in use, the history of a session the daemon
// joins late. protocol.md ("Hooks") has the mapping table.
//
// It knows nothing of sessions or of the wire: handlers/hook.go calls it, one payload at a time.
package bridge
