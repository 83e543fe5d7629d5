package session

import (
	"fmt"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// processAt starts one detached process run when its gate lets it, answering whether it did. before is
// what the run waits for before the digest is built (a launch's declared phases). Called under the lock.
func (sess *Session) processAt(now int64, trigger state.ProcessTrigger, before func()) bool {
	host, err := sess.forkHost()
	if err != nil || sess.st.Process.InFlight || !judge.ShouldProcess(sess.st, now, trigger) {
		return false
	}
	sess.observe(state.JudgeClaim{Kind: state.ProcessJudge})
	sess.afterEvent(func() {
		defer sess.event(func() { sess.observe(state.JudgeRelease{Kind: state.ProcessJudge}) })
		if before != nil {
			before()
		}
		sess.processOnce(host, trigger, now)
	})
	return true
}

// processOnce is one process run; every trigger is automatic, so a cold snapshot is no run and no
// failure: the cadence it spent is handed back and the next trigger tries again.
func (sess *Session) processOnce(host Host, trigger state.ProcessTrigger, now int64) {
	var prompt string
	var aliases map[string]string
	var was state.JudgeMark
	started := false
	if err := safely(func() {
		sess.event(func() {
			was = state.MarkOf(sess.st, state.ProcessJudge)
			sess.dispatch(state.JudgeStart{Kind: state.ProcessJudge, Now: now, Seq: sess.st.Seq, Trigger: trigger})
			started = true
			aliases = judge.Aliases(sess.st)
			prompt = processSpec.prompt(sess.st, aliases)
		})
	}); err != nil {
		if started {
			sess.event(func() { sess.processFailed(err.Error()) })
		}
		return
	}
	res, err := sess.srv.fork(host, sess.forkRequest(processSpec.purpose, prompt))
	sess.event(func() { sess.processed(trigger, res, err, aliases, was) })
}

// processed applies what the process fork answered; a failure is said, since a process judge that went
// quiet looks fine. Called under the lock.
func (sess *Session) processed(trigger state.ProcessTrigger, res *ForkResult, forkErr error, aliases map[string]string, was state.JudgeMark) {
	if res == nil {
		if forkErr == nil {
			sess.dispatch(state.JudgeCold{Kind: state.ProcessJudge, Was: was})
			return
		}
		done := sess.failedRun(state.ProcessJudge, forkErr, forkErr.Error())
		sess.dispatch(done)
		sess.logRun(done, forkErr.Error(), string(trigger))
		sess.toast(processFailedText + forkErr.Error())
		return
	}
	done, failure := sess.answer(processSpec, res, aliases)
	e := sess.dispatch(done)
	if failure != "" {
		sess.logRun(done, failure, string(trigger))
		sess.toast(processFailedText + failure)
		return
	}
	sess.log(fmt.Sprintf("ContextSaver process: %d returned · %d kept · %d dropped · from %s", done.Returned, done.Kept, len(done.Dropped), trigger))
	sess.logRun(done, "", string(trigger))
	sess.persist()
	sess.autoOpen(e.Queued)
}

const processFailedText = "ContextSaver: process check failed — "

// processFailed is a process run that failed before its fork answered anything.
func (sess *Session) processFailed(failure string) {
	sess.dispatch(sess.judgedNothing(state.ProcessJudge, failure))
	sess.toast(processFailedText + failure)
}
