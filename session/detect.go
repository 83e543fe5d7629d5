package session

import (
	"maps"
	"strconv"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/detect"
	"github.com/saverd/saverd/state/intake"
	"github.com/saverd/saverd/state/judge"
)

// The detectors that need no model (state/detect), live. At the end of each main-loop turn they read the
// whole ledger (never on a tool call's path: a full ledger takes a few milliseconds), and what they find
// that is news is a card at once, with no judge run and nothing spent, decided as a judge's card is. The
// rows their findings cite are work the habit judge's cadence no longer counts (state.Explained), and
// their patterns reach the judge's prompt as every known pattern does.

// runDetectors runs the detectors over the session, if it runs them: at a main-loop turn's end, and
// over a transcript adopted. Called under the lock.
func (sess *Session) runDetectors() {
	if !sess.detectors {
		return
	}
	st := sess.st
	if st.Seq == st.Detections.Through && st.Detections.Since == st.Judge.LastAtSeq {
		return // no row since the last detection, and its counts still hold: nothing to find
	}
	found := detect.Run(detect.Session{Rows: st.Rows, Compactions: st.Compactions, Cwd: st.Cwd, Calls: sess.calls})
	news := detect.News(st, found)
	a := state.Detected{Patterns: st.Patterns, Cited: detect.Cited(found), Through: st.Seq}
	sess.forgetCalls()
	if len(news) == 0 {
		sess.observe(a) // the counts the judge's cadence reads; nothing on screen changes
		return
	}
	merged := judge.Merge(st, news)
	a.Patterns, a.Fresh = merged.Patterns, merged.Fresh
	e := sess.dispatch(a)
	sess.log("ContextSaver detectors: " + strconv.Itoa(len(found)) + " found · " + strconv.Itoa(len(news)) + " new · " +
		strconv.Itoa(len(e.Queued)) + " carded, no model asked")
	sess.persist()
	sess.autoOpen(e.Queued)
	sess.detectedToast(e.Queued)
}

// detectedToast tells the person in a harness what the detectors carded: there is no pane to open, so
// the turn's answer says it, with the commands that fix or dismiss the card. Called under the lock.
func (sess *Session) detectedToast(queued []string) {
	sess.foundToast(queued, ", found without a model")
}

// keepCall keeps what the detectors need of the call just recorded beyond its row (detect.LiveCall).
// Called under the lock.
func (sess *Session) keepCall(e intake.ToolEvent) {
	if !sess.detectors || len(sess.st.Rows) == 0 {
		return
	}
	r := &sess.st.Rows[len(sess.st.Rows)-1]
	command, _ := e.String("command")
	if c, ok := detect.LiveCall(r, command, func() string { return intake.InputKey(e.Map()) }); ok {
		sess.keep(r.ID, c)
	}
}

// keepAdopted keeps what the detectors need of the calls a transcript brought, beyond the rows adopted
// from it. Called under the lock.
func (sess *Session) keepAdopted(messages []intake.SessionMessage) {
	if !sess.detectors {
		return
	}
	whole := detect.CallsOf(messages)
	for i := range sess.st.Rows {
		r := &sess.st.Rows[i]
		w, ok := whole[r.ID]
		if !ok {
			continue
		}
		if c, ok := detect.LiveCall(r, w.Command, func() string { return w.Input }); ok {
			sess.keep(r.ID, c)
		}
	}
}

func (sess *Session) keep(id string, c detect.Call) {
	if sess.calls == nil {
		sess.calls = map[string]detect.Call{}
	}
	sess.calls[id] = c
}

// forgetCalls drops, once they outnumber the ledger's cap, the calls of rows the ledger no longer holds
// (folded, or gone with a reset or a rolled-back event). Called under the lock.
func (sess *Session) forgetCalls() {
	if len(sess.calls) <= state.RowCap {
		return
	}
	held := make(map[string]bool, len(sess.st.Rows))
	for i := range sess.st.Rows {
		held[sess.st.Rows[i].ID] = true
	}
	maps.DeleteFunc(sess.calls, func(id string, _ detect.Call) bool { return !held[id] })
}
