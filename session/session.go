package session

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/intake"
	"github.com/saverd/saverd/textview"
)

// snapshotEvery is how many journaled actions a session keeps before it takes a fresh snapshot: the
// rollback a panic needs replays at most this many actions. A snapshot brings the last one up to date
// with what those actions changed (state.Snapshot), so its cost follows them, not the session's size.
const snapshotEvery = 128

// Session is one host session: its reducer state, and the journal that lets a failed event be rolled
// back. Everything the session knows of itself lives in st, so the one rollback covers it; the fields
// beside it are the daemon's runtime (locks, timers, channels, the registry file's copies, counters that
// must never repeat), which a rolled-back event has nothing to undo in.
type Session struct {
	srv *Table
	id  string
	// ref is SessionRef{id} boxed once: the params of the ui.invalidate a replay sends after every event.
	ref any

	mu sync.Mutex
	st *state.State
	// events counts the ordered events run (event), each one taking of mu: what a test holds a hook's
	// lock takes to. Guarded by mu.
	events uint64
	// writes counts the registry writes in flight, so session.end can wait for them; pendingWrites
	// the ones the event in progress started, added to writes when it commits (guarded by mu).
	writes        sync.WaitGroup
	pendingWrites int
	debug         bool
	// detectors: the detectors that need no model run at the end of each main-loop turn (detect.go);
	// set before the session is published, then only read.
	detectors bool
	// calls is what the ledger's rows leave out of their calls that the detectors read
	// (detect.LiveCall), by row id: a memo of the calls' inputs, not session state; guarded by mu.
	calls map[string]detect.Call
	// ended: session.end forgot the session; a run that answers later changes nothing the host sees.
	ended bool
	// priceNoted: the session's model has been priced (noteModel), so a model with no price is not
	// looked up again on every turn. A memo of the price table, not session state: losing it to a
	// rollback costs one more lookup.
	priceNoted bool
	// keys remembers the ledger keys of the shell commands the session ran (intake.Keys): a memo of a
	// pure function, not session state; guarded by mu.
	keys intake.Keys
	// lastSeen is when a hook last named the session (ms, the daemon's clock; see evict.go).
	lastSeen atomic.Int64
	// stored: per pattern id, the registry's copy as this session last loaded or changed it (see
	// registry.go); guarded by mu.
	stored map[string]storedCopy
	// replyTells: the /saver line being answered was typed in a harness, whose block reason is its reply:
	// a decision's toast that says what the reply says is left out; guarded by mu.
	replyTells bool
	// decidedAt: per pattern id, when the person last decided it in this session (ms, the daemon's
	// clock), which its next registry write carries (storedCopy.decidedAt); guarded by mu.
	decidedAt map[string]int64
	// invalidating: a ui.invalidate is already scheduled (its timer clears it).
	invalidating bool
	// spawnSeq numbers agent.spawn's spawnIds; it only grows, so a rolled-back id is never reused.
	spawnSeq int
	// writeSeq numbers the registry writes as they are taken (under mu); wroteSeq is the newest one
	// written (under writeMu). A write older than one already made is skipped, so a background write
	// that lost the race never puts back an older registry (session.end's flush, say).
	writeSeq int64
	writeMu  sync.Mutex
	wroteSeq int64

	// Rollback: st == snap + journal, action by action. A row added (addRow) is journaled as nil, its row
	// kept by value in journalRows, in order: the one action of nearly every event is then not boxed on
	// the heap, and both arrays are reused from one snapshot to the next.
	snap        *state.State
	journal     []state.Action
	journalRows []state.Row

	// outbox holds the notifications of the event in progress; they are sent after the lock is released.
	outbox []note
	// later holds the background work the event started; it starts once the outbox is sent, so a hook's
	// own notifications always precede what its background work says.
	later []func()

	// bridge is what the hook bridge keeps for a session a harness's hooks feed (nil for a host's).
	bridge *bridged
	// runWaiters wait for the judge run in flight; woken are closed once the event's notifications are out.
	runWaiters []chan struct{}
	woken      []chan struct{}
	// mail holds the toasts of a bridged session until the next hook answer carries them.
	mailMu sync.Mutex
	mail   []string
}

func newSession(srv *Table, id string, st *state.State, debug bool) *Session {
	s := &Session{srv: srv, id: id, ref: SessionRef{SessionID: id}, st: st, debug: debug}
	s.lastSeen.Store(srv.Now(nil))
	s.snap = st.Snapshot()
	return s
}

// event runs fn as one ordered event on the session, under its lock. A panic in fn rolls the session back
// to what it was before the event, then propagates so the rpc layer answers -32603 and logs the stack.
// The event's notifications are sent after the lock is released, in the order they were made.
func (sess *Session) event(fn func()) {
	sess.mu.Lock()
	sess.events++
	if len(sess.journal) >= snapshotEvery {
		sess.snap = sess.st.Snapshot()
		sess.journal = sess.journal[:0]
		sess.journalRows = sess.journalRows[:0]
	}
	mark := len(sess.journal)
	defer func() {
		if r := recover(); r != nil {
			sess.rollback(mark)
			sess.outbox = nil
			sess.later = nil
			sess.pendingWrites = 0
			sess.mu.Unlock()
			panic(r)
		}
		out, later, woken := sess.outbox, sess.later, sess.woken
		sess.outbox, sess.later, sess.woken = nil, nil, nil
		sess.writes.Add(sess.pendingWrites)
		sess.pendingWrites = 0
		bridged := sess.bridge != nil
		sess.mu.Unlock()
		for _, n := range out {
			if bridged {
				sess.post(n)
			}
			sess.srv.notify(n.method, n.params)
		}
		for _, c := range woken {
			close(c)
		}
		for _, fn := range later {
			sess.srv.background(fn)
		}
	}()
	fn()
}

// rollback rebuilds the state from the snapshot and the journal up to mark.
func (sess *Session) rollback(mark int) {
	st := state.ResumeFrom(sess.snap, sess.st)
	rows := 0
	for _, a := range sess.journal[:mark] {
		if a == nil {
			state.Reduce(st, state.AddRow{Row: sess.journalRows[rows]})
			rows++
			continue
		}
		state.Reduce(st, journaled(a)) // a fresh copy each replay: the state takes ownership of what it is handed
	}
	sess.st = st
	sess.journal = sess.journal[:mark]
	sess.journalRows = sess.journalRows[:rows]
}

// apply folds one action into the state and journals it, and answers what the reducer says it did.
// Actions that hand the reducer a slice it keeps are journaled with their own copy, so a later in-place
// edit cannot change what a replay applies.
func (sess *Session) apply(a state.Action) state.Effects {
	e := state.Reduce(sess.st, a)
	sess.journal = append(sess.journal, journaled(a))
	return e
}

// applyRow is apply(state.AddRow{Row: row}) with the row journaled by value in journalRows, its
// journal entry nil.
func (sess *Session) applyRow(row state.Row) state.Effects {
	e := state.Reduce(sess.st, state.AddRow{Row: row})
	sess.journal = append(sess.journal, nil)
	sess.journalRows = append(sess.journalRows, row)
	return e
}

// journaled is a copy of a that later in-place edits of the state cannot reach: the reducer keeps the
// patterns a judge run hands it and edits them as rows land.
func journaled(a state.Action) state.Action {
	switch v := a.(type) {
	case state.JudgeDone:
		v.Patterns = clonePatterns(v.Patterns)
		return v
	case state.Detected:
		v.Patterns = clonePatterns(v.Patterns)
		return v
	}
	return a
}

func clonePatterns(ps []state.Pattern) []state.Pattern {
	out := make([]state.Pattern, len(ps))
	copy(out, ps)
	return out
}

// dispatch is ContextSaver's dispatch: fold the action in, redraw, and say what a settled instruction
// saved and which came back. It answers what the reducer did, for the caller's own toasts.
func (sess *Session) dispatch(a state.Action) state.Effects {
	return sess.dispatched(sess.apply(a))
}

// addRow is dispatch(state.AddRow{Row: row}), journaled without boxing the row (see journalRows): a
// row is ~200 bytes, and one is added by every tool call.
func (sess *Session) addRow(row state.Row) state.Effects {
	return sess.dispatched(sess.applyRow(row))
}

// dispatched is what dispatch does once the action is applied: the redraw and the toasts.
func (sess *Session) dispatched(e state.Effects) state.Effects {
	sess.invalidate()
	sess.relapseToast(e.Requeued)
	if len(e.Settled) > 0 {
		sess.savedToast(e.Saved)
	}
	return e
}

// observe folds an action in without a redraw (ContextSaver's render-hook path).
func (sess *Session) observe(a state.Action) { sess.apply(a) }

// savedToast says what a settled instruction saved (the action's whole delta); the per-turn accrual
// behind it stays quiet on its own.
func (sess *Session) savedToast(delta state.Saved) {
	var grew []string
	if delta.Ms > 0 {
		grew = append(grew, "+"+textview.PreciseDuration(delta.Ms))
	}
	if share := textview.ContextShare(delta.Chars, sess.st.Usage.Window); share != "" {
		grew = append(grew, "+~"+share)
	}
	if len(grew) == 0 {
		return
	}
	text := grew[0]
	if len(grew) > 1 {
		text += " · " + grew[1]
	}
	sess.toast(text + " context saved")
}

// afterEvent starts fn in the background once the current event is over.
func (sess *Session) afterEvent(fn func()) { sess.later = append(sess.later, fn) }

func (sess *Session) send(method string, params any) {
	if sess.ended {
		return
	}
	sess.outbox = append(sess.outbox, note{method, params})
}

func (sess *Session) toast(text string) {
	sess.send(NotifyToast, Toast{SessionID: sess.id, Text: text})
}

// log is a debug session's ui.log line; other sessions say nothing.
func (sess *Session) log(text string) {
	if sess.debug {
		sess.send(NotifyLog, Toast{SessionID: sess.id, Text: text})
	}
}

// invalidateEvery is how often at most a session asks the host to redraw: a frame. A burst of tool
// calls is one redraw, and the last change is always followed by one.
const invalidateEvery = 16 * time.Millisecond

func (sess *Session) invalidate() {
	if !sess.srv.invalidates.Load() || sess.ended {
		return
	}
	if sess.srv.opt.Synchronous {
		// A replay says everything in order, so it plays back the same every time.
		sess.send(NotifyInvalidate, sess.ref)
		return
	}
	if sess.invalidating {
		return
	}
	sess.invalidating = true
	time.AfterFunc(invalidateEvery, func() {
		sess.mu.Lock()
		sess.invalidating = false
		ended := sess.ended
		sess.mu.Unlock()
		if !ended { // a session that ended since says nothing more
			sess.srv.notify(NotifyInvalidate, sess.ref)
		}
	})
}

// State is a copy of the session's state as its events have left it, taken as one ordered event: for a
// test or a tool that reads it, never the live one.
func (sess *Session) State() (st *state.State) {
	sess.event(func() { st = sess.st.Clone() })
	return st
}

// Events is how many ordered events the session has run (each one taking of its lock).
func (sess *Session) Events() (n uint64) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.events
}
