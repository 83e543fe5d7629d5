package session

import (
	"fmt"
	"strconv"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// What set one judge run going, as the debug log names it.
const (
	reasonToolCall     = "tool.call"
	reasonTurnComplete = "turn.complete"
	reasonCheck        = "/saver check"
	reasonLoad         = "load"
)

// The lanes a run answers out loud: the check the person typed, and the one the load armed for them.
func requested(reason string) bool { return reason == reasonCheck || reason == reasonLoad }

const (
	checkingText = "ContextSaver: checking this session for waste…"
	alreadyText  = "ContextSaver: already checking"
	noForkText   = "ContextSaver: check failed — the host offers no model.fork"
)

// runJudge starts one judge run in the background, if none is in flight. Called under the lock.
func (sess *Session) runJudge(reason string, now int64) {
	host, err := sess.forkHost()
	if err != nil || sess.st.Judge.InFlight || sess.st.Judge.Running {
		return
	}
	sess.observe(state.JudgeClaim{Kind: state.HabitJudge})
	sess.dispatch(state.JudgeStart{Kind: state.HabitJudge, Now: now, Seq: sess.st.Seq})
	sess.afterEvent(func() { sess.judgeOnce(host, reason, now) })
}

// judgeOnce is one run: journals brought up to date, the prompt built with one alias table, the fork,
// and the reply applied as one more ordered event. However it goes, `running` ends — and the run's
// flags end in the same event as its answer, so a check asked between the two is never told
// `already checking` by a run that has already answered.
func (sess *Session) judgeOnce(host Host, reason string, now int64) {
	finished := false
	defer func() {
		if finished {
			return
		}
		sess.event(func() {
			sess.dispatch(sess.judgedNothing(state.HabitJudge, "internal error: the run stopped before it answered"))
			sess.failedToast(reason, "internal error")
			sess.judgeEnded()
		})
	}()
	sess.refreshRuns(true, now)
	var prompt string
	var aliases map[string]string
	if err := safely(func() {
		sess.event(func() {
			aliases = judge.Aliases(sess.st)
			prompt = habitSpec.prompt(sess.st, aliases)
		})
	}); err != nil {
		sess.event(func() {
			sess.dispatch(sess.judgedNothing(state.HabitJudge, err.Error()))
			sess.failedToast(reason, err.Error())
			sess.judgeEnded()
			finished = true
		})
		return
	}
	res, err := sess.srv.fork(host, sess.forkRequest(habitSpec.purpose, prompt))
	sess.event(func() {
		sess.judged(reason, res, err, aliases)
		sess.judgeEnded()
		finished = true // last: a panic above rolls this event back, and the deferred failure ends the run
	})
}

// judgeEnded clears the run's flags, as ContextSaver's runJudge did in its finally. Called under the lock.
func (sess *Session) judgeEnded() {
	sess.observe(state.JudgeRelease{Kind: state.HabitJudge})
	// Whoever waits for this run (a `/saver check` typed in a harness's prompt box) wakes once the
	// run's toasts are out.
	sess.woken = append(sess.woken, sess.runWaiters...)
	sess.runWaiters = nil
}

// judged applies what the fork answered, and says it to whoever asked. Called under the lock.
func (sess *Session) judged(reason string, res *ForkResult, forkErr error, aliases map[string]string) {
	if res == nil {
		failure := coldFailure
		if forkErr != nil {
			failure = forkErr.Error()
		}
		done := sess.failedRun(state.HabitJudge, forkErr, failure)
		sess.dispatch(done)
		sess.logRun(done, failure, reason)
		sess.failedToast(reason, failure)
		return
	}
	done, failure := sess.answer(habitSpec, res, aliases)
	e := sess.dispatch(done)
	if failure != "" {
		sess.logRun(done, failure, reason)
		sess.failedToast(reason, failure)
		return
	}
	if sess.debug {
		sess.log(fmt.Sprintf("ContextSaver judge: %d returned · %d kept · %d dropped · from %s", done.Returned, done.Kept, len(done.Dropped), reason))
		for i, line := range done.Dropped {
			if i == state.DebugMaxDropped {
				break
			}
			sess.log(line)
		}
	}
	sess.logRun(done, "", reason)
	sess.persist()
	if !(requested(reason) || sess.st.Judge.Asked) {
		sess.autoOpen(e.Queued)
		sess.bridgedFound(e.Queued)
		return
	}
	sess.toast(checkedText(len(e.Queued), judge.DropNote(done.Dropped)))
	sess.openForCheck(e.Queued)
}

// checkedText is what a run put in front of the person: a recurrence is news too. What it dropped and
// why (note, from judge.DropNote) follows whatever it kept, so "nothing new" or "1 new waster" is never a
// judge whose other findings fell through unseen.
func checkedText(queued int, note string) string {
	text := "ContextSaver: " + strconv.Itoa(queued) + " new wasters"
	switch queued {
	case 0:
		text = "ContextSaver: nothing new"
	case 1:
		text = "ContextSaver: 1 new waster"
	}
	if note != "" {
		text += " — " + note
	}
	return text
}

// failedToast: a run someone asked for answers them, whatever it found; an armed check nobody asked for
// says its first failure once, since it will be retried.
func (sess *Session) failedToast(reason, failure string) {
	if reason == reasonLoad && !sess.st.Judge.Asked {
		if sess.st.LoadCheckSpoke {
			return
		}
		sess.observe(state.LoadCheckSpoke{})
		sess.toast("ContextSaver: could not check yet — " + failure)
		return
	}
	if requested(reason) || sess.st.Judge.Asked {
		sess.toast("ContextSaver: check failed — " + failure)
	}
}

// armedCheck fires the check a load armed, consulting no gate. Answers whether it took this opportunity.
func (sess *Session) armedCheck(now int64) bool {
	if !sess.st.PendingCheck || sess.st.Judge.Running {
		return false
	}
	sess.runJudge(reasonLoad, now)
	return true
}

// judgeAt: the armed check first, else the cadence's own count of new work.
func (sess *Session) judgeAt(now int64, cadence string) {
	if !sess.armedCheck(now) && judge.ShouldRun(sess.st, now) {
		sess.runJudge(cadence, now)
	}
}

// checkNow is Check now: a run in flight answers this ask too.
func (sess *Session) checkNow(now int64) string {
	if _, err := sess.forkHost(); err != nil {
		return "ContextSaver: check failed — " + err.Error()
	}
	if sess.st.Judge.InFlight || sess.st.Judge.Running {
		sess.observe(state.JudgeAsked{Kind: state.HabitJudge})
		return alreadyText
	}
	budget := state.BudgetOf(sess.st)
	sess.runJudge(reasonCheck, now)
	if budget.Over {
		return checkingText + budgetNote(budget)
	}
	return checkingText
}
