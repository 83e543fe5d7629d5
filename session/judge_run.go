package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
)

// One lifecycle for the two judges' runs. A run is claimed under the lock, so no second run of the same
// judge starts; it starts (state.JudgeStart), forks the session with its judge's prompt, and its answer
// (state.JudgeDone, or state.JudgeCold for a fork with no warm snapshot) is applied as one more ordered
// event; then it is released. What differs between the habit judge (judge_habit.go) and the process
// judge (process_run.go) is named once, in judgeSpec, and in what each says once it has answered.

// Why a run that reached the host has nothing to weigh, in words a person reads (the toast's and the
// debug dump's): model.fork's null, and a reply with no text at all.
const (
	coldFailure  = "the host could not fork this session yet (model.fork answered null)"
	emptyFailure = "the judge answered nothing"
)

// judgeSpec is what differs between the two judges' runs on the daemon's side: the kind the reducer
// keys on, the fork's purpose, the prompt, and how the reply is read and merged into the registry.
type judgeSpec struct {
	kind    state.JudgeKind
	purpose string
	prompt  func(*state.State, map[string]string) string
	parse   func(string, *state.State, map[string]string) judge.Reply
	merge   func(*state.State, []state.Finding) judge.MergeResult
}

var (
	habitSpec = judgeSpec{kind: state.HabitJudge, purpose: "judge",
		prompt: judge.BuildPrompt, parse: judge.ParseReply, merge: judge.Merge}
	processSpec = judgeSpec{kind: state.ProcessJudge, purpose: "process",
		prompt: judge.BuildProcessPrompt, parse: parseProcess, merge: judge.MergeProcess}
)

// parseProcess reads a process reply as a judge.Reply; the process judge reports no focus, time or context.
func parseProcess(text string, st *state.State, aliases map[string]string) judge.Reply {
	r := judge.ParseProcessReply(text, st, aliases)
	return judge.Reply{Findings: r.Findings, Dropped: r.Dropped, Returned: r.Returned}
}

// answer is what a fork's reply comes to: the JudgeDone to apply, and why the run failed ("" when it
// answered). A reply with nothing to weigh fails, and what the fork was billed is still spent; the
// process judge's failed run keeps the lines that made its reply unreadable, the habit judge's keeps
// none. res is not nil. Called under the lock.
func (sess *Session) answer(k judgeSpec, res *ForkResult, aliases map[string]string) (state.JudgeDone, string) {
	if strings.TrimSpace(res.Text) == "" {
		return sess.billed(k.kind, res, emptyFailure, nil), emptyFailure
	}
	var reply judge.Reply
	var merged judge.MergeResult
	if err := safely(func() {
		reply = k.parse(res.Text, sess.st, aliases)
		merged = k.merge(sess.st, reply.Findings)
	}); err != nil {
		return sess.judgedNothing(k.kind, err.Error()), err.Error()
	}
	if failure := judge.Unreadable(reply.Dropped); failure != "" {
		var dropped []string
		if k.kind == state.ProcessJudge {
			dropped = reply.Dropped
		}
		return sess.billed(k.kind, res, failure, dropped), failure
	}
	usage := judge.UsageOf(res.Usage)
	return state.JudgeDone{
		Kind: k.kind, Patterns: merged.Patterns, Fresh: merged.Fresh, Recurred: merged.Recurred, Focus: reply.Focus,
		Time: reply.Time, Context: reply.Context, Spent: judge.SpentOf(usage), Returned: reply.Returned,
		Kept: len(reply.Findings) - len(merged.Evicted), Usage: &usage,
		Dropped: append(append([]string(nil), reply.Dropped...), evictedReasons(merged.Evicted)...),
		CostUSD: sess.costOf(res, view.ClockOf(sess.st)),
	}, ""
}

// billed is a run of kind that failed after its fork spent res.Usage: nothing merged, what it was billed
// counted. dropped, when not nil, is the lines that made its reply unreadable. Called under the lock.
func (sess *Session) billed(kind state.JudgeKind, res *ForkResult, failure string, dropped []string) state.JudgeDone {
	usage := judge.UsageOf(res.Usage)
	done := sess.judgedNothing(kind, failure)
	if dropped != nil {
		done.Dropped = dropped
	}
	done.Spent, done.Usage, done.CostUSD = judge.SpentOf(usage), &usage, sess.costOf(res, view.ClockOf(sess.st))
	return done
}

// failedRun is the JudgeDone of a run whose fork answered nothing to weigh: what it spent when its
// error says (a SpentError), else nothing. Called under the lock.
func (sess *Session) failedRun(kind state.JudgeKind, forkErr error, failure string) state.JudgeDone {
	var spent *SpentError
	if errors.As(forkErr, &spent) {
		return sess.billed(kind, &spent.Spent, failure, nil)
	}
	return sess.judgedNothing(kind, failure)
}

// logRun says what one run did and what its fork cost, answered or failed, in the daemon's log, and in a
// debug session's ui.log the usage line `/saver debug` prints: a failed run costs as a kept one does, and
// only the four counts say why. Called under the lock.
func (sess *Session) logRun(done state.JudgeDone, failure, from string) {
	label := "judge"
	if done.Kind == state.ProcessJudge {
		label = "process"
	}
	ev := sess.srv.log.Info().Str("session", sess.id).Str("run", label).Str("from", from)
	if done.Usage != nil {
		u := *done.Usage
		ev = ev.Int64("in", u.Input).Int64("out", u.Output).Int64("cacheRead", u.CacheRead).Int64("cacheCreate", u.CacheCreate)
	}
	if done.CostUSD != nil {
		ev = ev.Float64("usd", *done.CostUSD)
	}
	if failure != "" {
		ev.Str("failure", failure).Msg("judge run failed")
	} else {
		ev.Int("returned", done.Returned).Int("kept", done.Kept).Msg("judge run answered")
	}
	if !sess.debug {
		return
	}
	if failure != "" {
		sess.log(fmt.Sprintf("ContextSaver %s: failed — %s · from %s", label, failure, from))
	}
	if done.Usage != nil {
		sess.log(view.UsageLine(*done.Usage, label))
	}
}

// judgedNothing is a run of kind that reported nothing: a cold snapshot, a refusal, or a failure of ours.
func (sess *Session) judgedNothing(kind state.JudgeKind, failure string) state.JudgeDone {
	return state.JudgeDone{Kind: kind, Patterns: sess.st.Patterns, Error: new(failure), Dropped: []string{}}
}

func evictedReasons(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, id+": evicted, over MAX_PATTERNS ("+strconv.Itoa(state.MaxPatterns)+")")
	}
	return out
}

// fork asks the host for one completion, bounded by the fork timeout and the daemon's life.
func (s *Table) fork(host Host, req ForkRequest) (*ForkResult, error) {
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
		// The host's own words are the why a person reads (daemon/host.go gives its error reply so).
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
