package session

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// typed is the origins a person typed: only these count as asks.
var typed = []string{"composer", "bridge"}

// PromptSubmit (prompt.submit) carries the one-time notes and standing fixes into the prompt, records what
// the person typed for the process judge, and retries a check still armed.
func (s *Table) PromptSubmit(p PromptSubmitParams) (ContextResult, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return ContextResult{}, err
	}
	now := s.Now(p.At)
	out := []string{}
	sess.event(func() { out = append(out, sess.promptSubmit(p, now)...) })
	return ContextResult{Context: out}, nil
}

func (sess *Session) promptSubmit(p PromptSubmitParams, now int64) []string {
	kind := ""
	if p.Origin != nil {
		kind = p.Origin.Kind
	}
	if kind == "plugin" || strings.HasPrefix(strings.TrimLeftFunc(p.Text, unicode.IsSpace), "/"+state.SaverCommand.Name) {
		return nil
	}
	// Only what the person typed is an ask: a task notification in the same words is nobody complaining.
	if slices.Contains(typed, kind) {
		pace := judge.IsPace(p.Text)
		turn := sess.st.Turn + 1
		if p.TurnID != nil {
			turn = sess.st.Turn
		}
		sess.dispatch(state.AddAsk{Ask: state.Ask{Turn: turn, At: now, Head: askHead(p.Text), Pace: pace}})
		if pace {
			sess.processAt(now, state.TriggerPace, nil)
		}
	}
	extra := sess.owedMain(false)
	// A prompt is no new work: only a check still armed fires, and it never changes what the prompt carries.
	sess.armedCheck(now)
	return extra
}

// askHead is what a typed prompt is kept as for the digest: one line, no control characters, at most AskHeadMax.
func askHead(text string) string {
	clean := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	return jstext.Cut16(jstext.CollapseWs(clean), state.AskHeadMax)
}

// AgentSpawn (agent.spawn): the standing habit fixes ride a new subagent's prompt; the engine's own forks
// inherit the parent's context. The spawn stays pending (counted as reached) until agent.spawned closes it.
func (s *Table) AgentSpawn(p AgentSpawnParams) (AgentSpawnResult, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return AgentSpawnResult{}, err
	}
	res := AgentSpawnResult{Prompt: p.Prompt}
	sess.event(func() {
		standing := sess.st.Standing
		if p.Fork || len(standing) == 0 {
			return
		}
		sess.dispatch(state.DeliveryPending{Delta: 1})
		sess.spawnSeq++
		res.SpawnID = "spawn-" + strconv.Itoa(sess.spawnSeq)
		sess.observe(state.RewriteOpened{SpawnID: res.SpawnID})
		res.Prompt = p.Prompt + "\n\n" + strings.Join(standing, "\n")
		sess.injected(standing)
	})
	return res, nil
}

// AgentSpawned (agent.spawned) closes a spawn AgentSpawn opened: the agent it started was reached.
func (s *Table) AgentSpawned(p AgentSpawnedParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	if p.SpawnID == "" {
		return invalid("params.spawnId: required")
	}
	now := s.Now(p.At)
	agent := ""
	if p.AgentID != nil {
		agent = *p.AgentID
	}
	sess.event(func() { sess.spawned(p.SpawnID, agent, now) })
	return nil
}

// spawned closes an open spawn: agentID is the agent it started ("" when the spawn failed). Called under
// the lock.
func (sess *Session) spawned(spawnID, agentID string, now int64) {
	if !sess.st.Rewrites[spawnID] {
		return
	}
	sess.observe(state.RewriteClosed{SpawnID: spawnID})
	if agentID != "" {
		sess.dispatch(state.DeliverySent{AgentID: agentID, Now: now})
		sess.log("ContextSaver delivery: spawn rewrite → " + agentID)
		sess.deliveredToast(now)
	}
	sess.dispatch(state.DeliveryPending{Delta: -1})
}
