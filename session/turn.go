package session

import (
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// answerHead is the characters of a turn's answer kept as an evidence quote.
const answerHead = 100

func turnStartAction(now int64) state.TurnStart { return state.TurnStart{Now: now} }

// TurnStart (turn.start): the clock dates the wait since the last answer, so TURNS can say the person was
// away.
func (s *Table) TurnStart(p SessionParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	now := s.Now(p.At)
	sess.event(func() { sess.dispatch(turnStartAction(now)) })
	return nil
}

func validEnd(r state.TurnEnd) bool {
	switch r {
	case state.EndAnswer, state.EndAborted, state.EndRefusal, state.EndError:
		return true
	}
	return false
}

// TurnComplete (turn.complete): a subagent's turn is its loop's; the main loop's turn records its stat,
// samples the window and consults the judge and process gates.
func (s *Table) TurnComplete(p TurnCompleteParams) error {
	if err := checkTurn(p); err != nil {
		return err
	}
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	if !validEnd(p.Reason) {
		return invalid("params.reason: want answer, aborted, refusal or error, got %q", p.Reason)
	}
	now := s.Now(p.At)
	sess.event(func() { sess.turnComplete(p, now) })
	return nil
}

func tokensOf(u *TurnUsage) state.Tokens {
	if u == nil {
		return state.Tokens{}
	}
	return state.Tokens{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheCreate: u.CacheCreationInputTokens}
}

func (sess *Session) turnComplete(p TurnCompleteParams, now int64) {
	tokens := tokensOf(p.Usage)
	if p.AgentID != nil {
		var model *string
		if p.Usage != nil {
			model = p.Usage.Model
		}
		sess.dispatch(state.LoopTurn{AgentID: *p.AgentID, Model: model, Ms: p.DurationMs, Tokens: tokens, Ended: p.Reason, Turn: sess.st.Turn})
		return
	}
	if p.Usage != nil && p.Usage.Model != nil {
		sess.noteModel(*p.Usage.Model, now)
	}
	// The window is sampled before the turn is recorded: how full it is after this turn is the turn's own
	// figure. The sample is optional: without it the turn is still recorded.
	var seen *int64
	if p.Context != nil {
		seen = p.Context.Tokens
	}
	sess.dispatch(state.TurnComplete{Stat: state.TurnStat{
		Input: tokens.Input, Output: tokens.Output, CacheRead: tokens.CacheRead, CacheCreate: tokens.CacheCreate,
		Ms: p.DurationMs, AnswerChars: jstext.Len16(p.Answer), AnswerHead: jstext.Cut16(p.Answer, answerHead),
		Aborted: p.IsAborted, Ended: p.Reason, At: now, Context: seen,
	}})
	if c := p.Context; c != nil {
		sess.dispatch(state.UsageSample{Usage: state.Usage{Window: c.Window, Tokens: c.Tokens, Percent: c.Percent}, Now: now})
	}
	// The detectors first: what they card costs nothing, and the judge's cadence and prompt then know it.
	sess.runDetectors()
	sess.judgeAt(now, reasonTurnComplete)
	sess.processAt(now, state.TriggerClock, nil)
}

// SessionCompact (session.compact): a compaction we record is the compaction the engine performed.
func (s *Table) SessionCompact(p SessionParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	sess.event(func() { sess.dispatch(state.Compact{}) })
	return nil
}
