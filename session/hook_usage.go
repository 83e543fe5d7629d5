package session

import (
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/state"
)

// What a turn was billed, read from the session's log as the hooks come. The reading goes on from where
// it stopped (bridged.read), never from the file's size: Claude Code 2.1.328 writes a turn's last
// response after its Stop hook runs, so the Stop's read can end before it, and the next event that comes
// (a prompt, SessionEnd, the status line) first gives the lines written since to the turn that ended.
//
// A hook reads the log before it takes the session's lock (a turn can write megabytes), from where the
// session published its reading stood (bridged.pos), with bridged.readMu held so two reads never count
// the same lines; its one ordered event then applies what it read, unless a SessionStart that named
// another log moved the reading meanwhile (bridged.current).

// readPos is where the hooks' reading of the session's log stands: the log, where the last read stopped,
// and whether a Stop ended the last turn since (the lines after read are then that turn's).
type readPos struct {
	transcript string
	read       bridge.Cursor
	ended      bool
}

// due reports whether the log grew since the Stop that ended the last turn read it.
func (p readPos) due() bool {
	return p.ended && p.transcript != "" && bridge.Size(p.transcript) > p.read.Off
}

// logRead is one read of the session's log, made before the hook's event: where it started, what the
// calls it read were billed, and where the next read starts. made is false when nothing was read.
type logRead struct {
	from readPos
	u    bridge.Usage
	next bridge.Cursor
	made bool
}

// publishRead makes the reading's position what bridged.pos gives. Called under the lock (or before the
// session is shared), after the transcript, read or ended changed.
func (b *bridged) publishRead() {
	b.pos.Store(&readPos{transcript: b.transcript, read: b.read, ended: b.ended})
}

// current reports whether r was read from where the session's reading still stands. Called under the lock.
func (b *bridged) current(r logRead) bool {
	return r.made && b.transcript == r.from.transcript && b.read == r.from.read
}

// readOn reads the session's log on from where its reading stands, outside the session's lock. Called
// with bridged.readMu held.
func (s *Table) readOn(sess *Session) logRead {
	pos := *sess.bridge.pos.Load()
	r := logRead{from: pos, next: pos.read}
	if pos.transcript == "" {
		return r
	}
	u, next, err := sess.bridge.live.TurnUsage(pos.transcript, pos.read)
	if err != nil {
		transcriptUnread(s, err, sess.id, pos.transcript, "hook: turn usage unread")
	}
	r.u, r.next, r.made = u, next, true
	return r
}

// lateRead reads what the log gained since a Stop ended the last turn; nothing is read unless a Stop
// ended it and the log grew since. Called with bridged.readMu held.
func (s *Table) lateRead(sess *Session) logRead {
	if !sess.bridge.pos.Load().due() {
		return logRead{}
	}
	return s.readOn(sess)
}

// lateEvent runs fn as the hook's one ordered event, after what every hook's event begins with (hooked)
// and what the log gained since the last turn ended, given to that turn (applyLate).
func (s *Table) lateEvent(sess *Session, pl bridge.Payload, now int64, fn func()) {
	s.readEvent(sess, pl, s.lateRead, func(r logRead) {
		sess.applyLate(r, now)
		fn()
	})
}

// readEvent is a hook that reads the session's log: read reads it before the session's lock, then fn
// takes what it read as the hook's one ordered event, after hooked. bridged.readMu is held across both,
// so a hook that reads the same log waits and reads on from where this one's event left it.
func (s *Table) readEvent(sess *Session, pl bridge.Payload, read func(*Session) logRead, fn func(logRead)) {
	b := sess.bridge
	b.readMu.Lock()
	defer b.readMu.Unlock()
	r := read(sess)
	sess.event(func() {
		sess.hooked(pl)
		fn(r)
	})
}

// applyLate gives a late read to the turn that ended (state.TurnLate), with the window after its newest
// call. Called under the lock.
func (sess *Session) applyLate(r logRead, now int64) {
	b := sess.bridge
	if !b.ended || !b.current(r) {
		return
	}
	b.read = r.next
	b.publishRead()
	u := r.u
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
}
