package handlers

import (
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/state"
)

// What a turn was billed, read from the session's log as the hooks come. The reading goes on from where
// it stopped (bridged.read), never from the file's size: Claude Code 2.1.328 writes a turn's last
// response after its Stop hook runs, so the Stop's read can end before it, and the next event that comes
// (a prompt, SessionEnd, the status line) first gives the lines written since to the turn that ended.

// readOn reads the session's log from where the last read stopped, outside the session's lock (a turn
// can write megabytes): what the calls there were billed, and where the next read starts. Called with
// bridged.readMu held.
func (s *Server) readOn(sess *Session) (bridge.Usage, bridge.Cursor) {
	var from bridge.Cursor
	var path string
	sess.event(func() { from, path = sess.bridge.read, sess.bridge.transcript })
	if path == "" {
		return bridge.Usage{}, from
	}
	u, next, err := sess.bridge.live.TurnUsage(path, from)
	if err != nil {
		transcriptUnread(s, err, sess.id, path, "hook: turn usage unread")
	}
	return u, next
}

// lateUsage gives what the log gained since the last turn ended to that turn (state.TurnLate), with the
// window after its newest call. wait false: when another read of the session is under way, nothing (a
// status line is drawn from what is known). Nothing is read unless a Stop ended the last turn and the
// log grew since.
func (s *Server) lateUsage(sess *Session, now int64, wait bool) {
	b := sess.bridge
	if wait {
		b.readMu.Lock()
	} else if !b.readMu.TryLock() {
		return
	}
	defer b.readMu.Unlock()
	var due bool
	sess.event(func() { due = b.lateDue() })
	if !due {
		return
	}
	u, next := s.readOn(sess)
	sess.event(func() {
		b.read = next
		if u.Empty() {
			return
		}
		if u.Model != "" {
			b.model = u.Model
		}
		late := state.TurnLate{Tokens: state.Tokens{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheCreate: u.CacheCreate}}
		window := contextOf(windowOf(b), u.Context)
		if window != nil {
			late.Context = window.Tokens
		}
		sess.dispatch(late)
		if window != nil {
			sess.dispatch(state.UsageSample{Usage: *window, Now: now})
		}
	})
}

// lateDue reports whether the log grew since the Stop that ended the last turn read it. Called under the
// lock.
func (b *bridged) lateDue() bool {
	return b.ended && b.transcript != "" && bridge.Size(b.transcript) > b.read.Off
}
