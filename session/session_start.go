package session

import (
	"strconv"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// SessionStart (session.start) is ContextSaver's session.start hook: the registry loaded, the window sampled,
// the overhead measured, and a transcript this daemon joined late adopted — with a check armed and fired over
// it when it passes the row floor.
func (s *Table) SessionStart(p SessionStartParams) (SessionStartResult, error) {
	if err := checkStart(p); err != nil {
		return SessionStartResult{}, err
	}
	if p.SessionID == "" {
		return SessionStartResult{}, invalid("params.sessionId: required")
	}
	if p.Cwd == "" {
		return SessionStartResult{}, invalid("params.cwd: required")
	}
	if err := checkBudget(p.JudgeBudget); err != nil {
		return SessionStartResult{}, err
	}
	now := s.Now(p.At)
	var window int64
	if p.Usage != nil {
		window = p.Usage.Window
	}
	st := state.New(p.Cwd, window)
	stored := s.loadPatterns(st)
	sess := newSession(s, p.SessionID, st, p.Debug)
	sess.stored = stored
	budget, detectors := s.settingsFor(p.Cwd, p.JudgeBudget, false)
	sess.detectors = detectors
	s.mu.Lock()
	s.sessions[p.SessionID] = sess
	s.mu.Unlock()

	res := SessionStartResult{Command: state.SaverCommand}
	sess.event(func() {
		if budget != state.JudgeBudgetDefault {
			sess.dispatch(state.SetBudget{Share: budget})
		}
		if u := p.Usage; u != nil {
			sess.dispatch(state.UsageSample{Usage: u.Usage, Now: now})
			sess.dispatch(state.SetOverhead{Overhead: overheadOf(u.Breakdown)})
		}
		res.Adopted, res.Armed = sess.adopt(p.Messages, now)
	})
	return res, nil
}

func overheadOf(b *Breakdown) state.Overhead {
	if b == nil {
		return state.Overhead{}
	}
	n := func(t *tokenCount) int64 {
		if t == nil {
			return 0
		}
		return int64(*t)
	}
	return state.Overhead{Memory: n(b.MemoryFiles), MCP: n(b.MCPTools), Agents: n(b.Agents)}
}

// adopt rebuilds the ledger from a late-joined transcript; past the row floor it arms a check and fires
// it at once (a cold answer leaves it armed for the next warm opportunity).
func (sess *Session) adopt(messages []intake.SessionMessage, now int64) (adopted int, armed bool) {
	n := sess.adoptRows(messages)
	return n, sess.adopted(n, now, true)
}

// adoptRows puts the rows of a late-joined transcript in the ledger; how many. Called under the lock.
func (sess *Session) adoptRows(messages []intake.SessionMessage) int {
	rows := intake.AdoptRows(messages)
	if len(rows) == 0 {
		return 0
	}
	sess.dispatch(state.Adopt{Rows: rows})
	sess.keepAdopted(messages)
	return len(rows)
}

// adopted is what follows n adopted rows: the detectors over them, and, when arm and past the row
// floor, a check armed and fired at once. Answers whether it armed one. Called under the lock.
func (sess *Session) adopted(n int, now int64, arm bool) bool {
	if n == 0 {
		return false
	}
	sess.runDetectors() // the adopted turns have ended: what the rules name is carded before any judge runs
	enough := len(sess.st.Rows) >= state.JudgeMinRows
	tail := "checking them now"
	switch {
	case !enough:
		tail = "under the " + strconv.Itoa(state.JudgeMinRows) + "-row floor, nothing to check"
	case !arm:
		tail = "checked before the join, no check armed"
	}
	sess.log("ContextSaver adopted " + strconv.Itoa(n) + " rows from the transcript · " + tail)
	if !enough || !arm {
		return false
	}
	sess.dispatch(state.CheckArm{})
	sess.log("ContextSaver fired a check over " + strconv.Itoa(len(sess.st.Rows)) + " adopted rows · armed, so a cold answer retries")
	sess.armedCheck(now)
	return true
}

// SessionEnd (session.end) flushes the session's registry and forgets it.
func (s *Table) SessionEnd(p SessionParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	sess.flush()
	sess.event(func() { sess.ended = true })
	s.mu.Lock()
	if s.sessions[p.SessionID] == sess {
		delete(s.sessions, p.SessionID)
	}
	s.mu.Unlock()
	return nil
}
