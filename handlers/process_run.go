package handlers

import (
	"fmt"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
)

// processAt starts one detached process run when its gate lets it, answering whether it did. before is
// what the run waits for before the digest is built (a launch's declared phases). Called under the lock.
func (sess *Session) processAt(now int64, trigger state.ProcessTrigger, before func()) bool {
	host, err := sess.forkHost()
	if err != nil || sess.flags.processing || !judge.ShouldProcess(sess.st, now, trigger) {
		return false
	}
	sess.flags.processing = true
	sess.spawn(func() {
		defer sess.event(func() { sess.flags.processing = false })
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
	var was state.ProcessMark
	started := false
	if err := safely(func() {
		sess.event(func() {
			was = state.ProcessMark{LastAtMs: sess.st.Process.LastAtMs, LastAtSeq: sess.st.Process.LastAtSeq, LastAtTurn: sess.st.Process.LastAtTurn}
			sess.dispatch(state.ProcessStart{Now: now, Seq: sess.st.Seq, Trigger: trigger})
			started = true
			aliases = judge.Aliases(sess.st)
			prompt = judge.BuildProcessPrompt(sess.st, aliases)
		})
	}); err != nil {
		if started {
			sess.event(func() { sess.processFailed(err.Error()) })
		}
		return
	}
	res, err := sess.srv.fork(host, sess.forkRequest("process", prompt))
	sess.event(func() { sess.processed(trigger, res, err, aliases, was) })
}

// processed applies what the process fork answered. Called under the lock.
func (sess *Session) processed(trigger state.ProcessTrigger, res *ForkResult, forkErr error, aliases map[string]string, was state.ProcessMark) {
	if res == nil {
		if forkErr == nil {
			sess.dispatch(state.ProcessCold{Was: was})
			return
		}
		sess.processFailed(forkErr.Error())
		return
	}
	if strings.TrimSpace(res.Text) == "" {
		sess.processUnreadable(emptyFailure, res, nil)
		return
	}
	var reply judge.ProcessReply
	var merged judge.MergeResult
	if err := safely(func() {
		reply = judge.ParseProcessReply(res.Text, sess.st, aliases)
		merged = judge.MergeProcess(sess.st, reply.Findings)
	}); err != nil {
		sess.processFailed(err.Error())
		return
	}
	if failure := judge.Unreadable(reply.Dropped); failure != "" {
		sess.processUnreadable(failure, res, reply.Dropped)
		return
	}
	usage := judge.UsageOf(res.Usage)
	reasons := append(append([]string(nil), reply.Dropped...), evictedReasons(merged.Evicted)...)
	kept := len(reply.Findings) - len(merged.Evicted)
	sess.dispatch(state.ProcessDone{
		Patterns: merged.Patterns, Fresh: merged.Fresh, Recurred: merged.Recurred, Spent: judge.SpentOf(usage),
		Returned: reply.Returned, Kept: kept, Dropped: reasons, Usage: &usage, CostUSD: sess.costOf(res, view.ClockOf(sess.st)),
	})
	sess.log(fmt.Sprintf("ContextSaver process: %d returned · %d kept · %d dropped · from %s", reply.Returned, kept, len(reasons), trigger))
	sess.persist()
	sess.autoOpen(sess.queued(merged.Fresh))
}

// processUnreadable is a process fork that answered nothing to weigh: a failure, said, whose bill is
// still spent. Called under the lock.
func (sess *Session) processUnreadable(failure string, res *ForkResult, dropped []string) {
	usage := judge.UsageOf(res.Usage)
	if dropped == nil {
		dropped = []string{}
	}
	sess.dispatch(state.ProcessDone{Patterns: sess.st.Patterns, Error: new(failure), Dropped: dropped,
		Spent: judge.SpentOf(usage), Usage: &usage, CostUSD: sess.costOf(res, view.ClockOf(sess.st))})
	sess.toast("ContextSaver: process check failed — " + failure)
}

// processFailed: a process judge that went quiet looks fine, so the failure is said.
func (sess *Session) processFailed(failure string) {
	sess.dispatch(state.ProcessDone{Patterns: sess.st.Patterns, Error: new(failure), Dropped: []string{}})
	sess.toast("ContextSaver: process check failed — " + failure)
}
