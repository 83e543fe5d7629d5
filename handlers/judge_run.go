package handlers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
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

// Why a run that reached the host has nothing to weigh, in words a person reads (the toast's and the
// debug dump's): model.fork's null, and a reply with no text at all.
const (
	coldFailure  = "the host could not fork this session yet (model.fork answered null)"
	emptyFailure = "the judge answered nothing"
)

// runJudge starts one judge run in the background, if none is in flight. Called under the lock.
func (sess *Session) runJudge(reason string, now int64) {
	host, err := sess.forkHost()
	if err != nil || sess.flags.forking || sess.st.Judge.Running {
		return
	}
	sess.flags.forking = true
	sess.dispatch(state.JudgeStart{Now: now, Seq: sess.st.Seq})
	sess.spawn(func() { sess.judgeOnce(host, reason, now) })
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
			sess.dispatch(sess.judgedNothing("internal error: the run stopped before it answered"))
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
			prompt = judge.BuildPrompt(sess.st, aliases)
		})
	}); err != nil {
		sess.event(func() {
			sess.dispatch(sess.judgedNothing(err.Error()))
			sess.failedToast(reason, err.Error())
			sess.judgeEnded()
			finished = true
		})
		return
	}
	res, err := sess.srv.fork(host, sess.forkRequest("judge", prompt))
	sess.event(func() {
		sess.judged(reason, res, err, aliases)
		sess.judgeEnded()
		finished = true // last: a panic above rolls this event back, and the deferred failure ends the run
	})
}

// judgeEnded clears the run's flags, as the plugin's runJudge did in its finally. Called under the lock.
func (sess *Session) judgeEnded() {
	sess.flags.forking = false
	sess.flags.asked = false
	// Whoever waits for this run (a `/saver check` typed in a harness's prompt box) wakes once the
	// run's toasts are out.
	sess.woken = append(sess.woken, sess.runWaiters...)
	sess.runWaiters = nil
}

// judged applies what the fork answered. Called under the lock.
func (sess *Session) judged(reason string, res *ForkResult, forkErr error, aliases map[string]string) {
	if res == nil {
		failure := coldFailure
		if forkErr != nil {
			failure = forkErr.Error()
		}
		sess.dispatch(sess.judgedNothing(failure))
		sess.failedToast(reason, failure)
		return
	}
	if strings.TrimSpace(res.Text) == "" {
		sess.judgedUnreadable(reason, emptyFailure, res)
		return
	}
	var reply judge.Reply
	var merged judge.MergeResult
	if err := safely(func() {
		reply = judge.ParseReply(res.Text, sess.st, aliases)
		merged = judge.Merge(sess.st, reply.Findings)
	}); err != nil {
		sess.dispatch(sess.judgedNothing(err.Error()))
		sess.failedToast(reason, err.Error())
		return
	}
	if failure := judge.Unreadable(reply.Dropped); failure != "" {
		sess.judgedUnreadable(reason, failure, res)
		return
	}
	reasons := append(append([]string(nil), reply.Dropped...), evictedReasons(merged.Evicted)...)
	kept := len(reply.Findings) - len(merged.Evicted)
	usage := judge.UsageOf(res.Usage)
	sess.dispatch(state.JudgeDone{
		Patterns: merged.Patterns, Fresh: merged.Fresh, Recurred: merged.Recurred, Focus: reply.Focus,
		Time: reply.Time, Context: reply.Context, Spent: judge.SpentOf(usage), Returned: reply.Returned,
		Kept: kept, Dropped: reasons, Usage: &usage, CostUSD: sess.costOf(res, view.ClockOf(sess.st)),
	})
	if sess.debug {
		sess.log(fmt.Sprintf("ContextSaver judge: %d returned · %d kept · %d dropped · from %s", reply.Returned, kept, len(reasons), reason))
		for i, line := range reasons {
			if i == state.DebugMaxDropped {
				break
			}
			sess.log(line)
		}
		sess.log(view.UsageLine(usage, "judge"))
	}
	sess.persist()
	queued := sess.queued(append(append([]string(nil), merged.Fresh...), merged.Recurred...))
	if !(requested(reason) || sess.flags.asked) {
		sess.autoOpen(queued)
		sess.bridgedFound(queued)
		return
	}
	sess.toast(checkedText(len(queued), judge.DropNote(reasons)))
	sess.openForCheck(queued)
}

// judgedUnreadable is a run the fork answered with nothing to weigh: it failed, and what the fork was
// billed is still spent. Called under the lock.
func (sess *Session) judgedUnreadable(reason, failure string, res *ForkResult) {
	usage := judge.UsageOf(res.Usage)
	done := sess.judgedNothing(failure)
	done.Spent, done.Usage, done.CostUSD = judge.SpentOf(usage), &usage, sess.costOf(res, view.ClockOf(sess.st))
	sess.dispatch(done)
	sess.failedToast(reason, failure)
}

func evictedReasons(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, id+": evicted, over MAX_PATTERNS ("+strconv.Itoa(state.MaxPatterns)+")")
	}
	return out
}

// queued keeps the ids that are cards now.
func (sess *Session) queued(ids []string) []string {
	var out []string
	for _, id := range ids {
		if slices.Contains(sess.st.Cards, id) {
			out = append(out, id)
		}
	}
	return out
}

// checkedText is what a run put in front of the person: a recurrence is news too. A run that queued
// nothing says what it dropped and why (note, from judge.DropNote), so "nothing new" is never a judge
// whose findings all fell through unseen.
func checkedText(queued int, note string) string {
	if queued == 0 && note != "" {
		return "ContextSaver: nothing new — " + note
	}
	switch queued {
	case 0:
		return "ContextSaver: nothing new"
	case 1:
		return "ContextSaver: 1 new waster"
	}
	return "ContextSaver: " + strconv.Itoa(queued) + " new wasters"
}

// judgedNothing is a run that reported nothing: a cold snapshot, a refusal, or a failure of ours.
func (sess *Session) judgedNothing(failure string) state.JudgeDone {
	return state.JudgeDone{Patterns: sess.st.Patterns, Error: new(failure), Dropped: []string{}}
}

// failedToast: a run someone asked for answers them, whatever it found; an armed check nobody asked for
// says its first failure once, since it will be retried.
func (sess *Session) failedToast(reason, failure string) {
	if reason == reasonLoad && !sess.flags.asked {
		if sess.flags.armedSpoke {
			return
		}
		sess.flags.armedSpoke = true
		sess.toast("ContextSaver: could not check yet — " + failure)
		return
	}
	if requested(reason) || sess.flags.asked {
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
	if sess.flags.forking || sess.st.Judge.Running {
		sess.flags.asked = true
		return alreadyText
	}
	budget := state.BudgetOf(sess.st)
	sess.runJudge(reasonCheck, now)
	if budget.Over {
		return checkingText + budgetNote(budget)
	}
	return checkingText
}

// fork asks the host for one completion, bounded by the fork timeout and the daemon's life.
func (s *Server) fork(host Host, req ForkRequest) (*ForkResult, error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.opt.ForkTimeout)
	defer cancel()
	res, err := host.Fork(ctx, req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("the judge did not answer within %s (model.fork timed out)", s.opt.ForkTimeout)
		}
		if s.ctx.Err() != nil {
			return nil, errors.New("the daemon is shutting down")
		}
		return nil, err
	}
	return res, nil
}

// safely runs fn and turns a panic into an error, so a run that failed still ends.
func safely(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	fn()
	return nil
}
