package session

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
	"github.com/saverd/saverd/textview"
)

// typedPrompt is a prompt that is no `/saver` command: a turn starts, and the prompt carries the notes
// and the standing fixes. Called under the lock.
func (sess *Session) typedPrompt(pl bridge.Payload, now int64, late bool) (out []string) {
	kind := "composer"
	if bridge.IsTaskNotification(pl.Prompt) {
		kind = "task"
	}
	b := sess.bridge
	// A subagent's task notification that comes while a turn runs is part of that turn, which one Stop
	// ends: starting a turn there would leave the calls made before it out of every turn's usage.
	if kind != "task" || !b.turnOpen {
		b.turnAt, b.turnOpen, b.ended = now, true, false
		b.publishRead()
		sess.dispatch(turnStartAction(now))
	}
	b.unheard(late, func() { out = sess.promptSubmit(PromptSubmitParams{Text: pl.Prompt, Origin: &Origin{Kind: kind}}, now) })
	return out
}

// saverTyped runs `/saver …` typed in the prompt box, in the hook's event: its reply is what the person
// reads. `/saver` alone shows the pane as text; a `/saver check` whose run is in flight answers the
// channel the run's end closes, which saverReply waits on. Called under the lock.
func (sess *Session) saverTyped(args string, now int64) (reply string, wait chan struct{}) {
	switch firstField(args) {
	case "", "rules":
		return sess.paneText(), nil
	case "check":
		reply = sess.saver(args, now)
		if sess.st.Judge.InFlight || sess.st.Judge.Running {
			wait = make(chan struct{})
			sess.runWaiters = append(sess.runWaiters, wait)
		}
		return reply, wait
	}
	sess.replyTells = true
	defer func() { sess.replyTells = false }()
	return sess.saver(args, now), nil
}

// saverReply is what the person reads of a `/saver` line typed: the toasts it made, then its reply. A
// check that waits for its run shows the pane once the run has ended, drawn in one more event (the run's
// answer is its own); past CheckWait, the reply and where the cards will show.
func (s *Table) saverReply(ctx context.Context, sess *Session, reply string, wait chan struct{}) string {
	if wait == nil {
		return joinText(joinText(sess.takeMail()...), reply)
	}
	limit := s.opt.CheckWait
	if limit == 0 {
		limit = DefaultCheckWait
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-wait:
	case <-timer.C:
		return reply + "\nContextSaver: still checking — the cards will show on `" + sess.command() + "` and in the next answers"
	case <-ctx.Done():
		return reply
	}
	var pane string
	sess.event(func() { pane = sess.paneText() })
	return joinText(joinText(sess.takeMail()...), pane)
}

// paneText is the pane drawn as text, its commands as the harness's person types them, as wide as the
// harness last said it shows a hook's answer (a line wider than that, the harness wraps at its own
// indent, and the pane's columns and gutters fall apart). Called under the lock.
func (sess *Session) paneText() string {
	width := paneWidth
	if c := sess.bridge.columns.Load(); c > 0 {
		width = int(c)
	}
	return textview.PaneAs(view.BuildPane(sess.st, sess.proposals()), width, sess.command())
}

// preToolUse rewrites an Agent (or Task) call's prompt with the standing fixes: the whole input goes
// back, since the harness replaces the input with what the hook answers.
func (sess *Session) preToolUse(pl bridge.Payload, now int64, late bool) *bridge.Answer {
	var prompt string
	var rewrite bool // late: the call went on with its input as it was
	if !late && bridge.IsAgentTool(pl.ToolName) {
		prompt, rewrite = bridge.AgentPrompt(pl.ToolInput)
	}
	var rewritten string
	sess.event(func() {
		sess.hooked(pl)
		sess.bridge.callStarted(pl.ToolUseID, now)
		standing := sess.st.Standing
		if !rewrite || len(standing) == 0 {
			return
		}
		sess.dispatch(state.DeliveryPending{Delta: 1})
		sess.spawnSeq++
		id := "spawn-" + strconv.Itoa(sess.spawnSeq)
		sess.observe(state.RewriteOpened{SpawnID: id})
		sess.bridge.spawns[pl.ToolUseID] = id
		rewritten = prompt + "\n\n" + strings.Join(standing, "\n")
		sess.injected(standing)
	})
	if rewritten == "" {
		return nil
	}
	input, err := bridge.WithPrompt(pl.ToolInput, rewritten)
	if err != nil {
		return nil
	}
	return bridge.SpawnInput(input)
}

// postToolUse records one finished call (a failure as an error row) and answers the texts owed to it;
// an Agent call's result closes the spawn its PreToolUse opened.
func (s *Table) postToolUse(sess *Session, pl bridge.Payload, now int64, late bool) *bridge.Answer {
	// The payload is decoded and a subagent's transcript read before the session's lock is taken, which
	// is taken once, for the call's one event: a tool output can be megabytes, and nothing of the session
	// is needed to read it but the subagents running and the transcript, which the bridge publishes.
	agent := pl.AgentID
	if agent == "" {
		c := sess.bridge.callers.Load()
		agent = sess.bridge.live.CallAgent(c.transcript, sess.id, c.agents, pl.ToolUseID)
	}
	tc, err := bridge.ToolCallOf(pl, agent)
	if err != nil {
		s.log.Warn().Err(err).Str("session", sess.id).Msg("hook: tool call not recorded")
		sess.event(func() { sess.hooked(pl) }) // the call is not recorded, but the hook came
		return nil
	}
	var out []string
	sess.event(func() {
		sess.hooked(pl)
		if sess.recorded(pl.ToolUseID) {
			return // already a row: adopted from the transcript when the daemon joined this session
		}
		if ms, ok := sess.bridge.sinceStart(pl.ToolUseID, now); ok && pl.DurationMs == nil {
			tc.Ms = ms
		}
		sess.bridge.unheard(late, func() { out = sess.toolCall(tc.Event, tc.Result, tc.Ms, now) })
		if id, ok := sess.bridge.spawns[pl.ToolUseID]; ok {
			delete(sess.bridge.spawns, pl.ToolUseID)
			sess.spawned(id, bridge.AgentIDOf(pl.ToolResponse), now)
		}
	})
	return bridge.Context(pl.Event, out)
}

// subagentStop is a subagent's turn: its cost (from its own transcript) and how it ended go on its loop.
func (s *Table) subagentStop(sess *Session, pl bridge.Payload, now int64) {
	var u bridge.Usage
	if pl.AgentTranscriptPath != "" {
		var err error
		if u, err = sess.bridge.live.AgentUsage(pl.AgentTranscriptPath); err != nil {
			transcriptUnread(s, err, sess.id, pl.AgentTranscriptPath, "hook: subagent usage unread")
		}
	}
	sess.event(func() {
		sess.hooked(pl)
		started, ok := sess.bridge.agents[pl.AgentID]
		delete(sess.bridge.agents, pl.AgentID)
		sess.bridge.publish()
		var ms int64
		if ok {
			ms = max(0, now-started)
		}
		answer := ""
		if pl.LastAssistantMessage != nil {
			answer = *pl.LastAssistantMessage
		}
		sess.turnComplete(TurnCompleteParams{AgentID: &pl.AgentID, Usage: turnUsage(u), DurationMs: ms, Answer: answer, Reason: state.EndAnswer}, now)
	})
}

// stop is the main loop's turn ending: its usage and the window read from the transcript, on from where
// the last read stopped.
func (s *Table) stop(sess *Session, pl bridge.Payload, now int64) {
	b := sess.bridge
	s.readEvent(sess, pl, s.readOn, func(r logRead) {
		var u bridge.Usage
		if b.current(r) {
			u, b.read = r.u, r.next
		}
		b.turnOpen, b.ended = false, true
		b.publishRead()
		if u.Model != "" {
			b.model = u.Model
		}
		ms := int64(0)
		if b.turnAt > 0 {
			ms = max(0, now-b.turnAt)
		}
		answer := ""
		if pl.LastAssistantMessage != nil {
			answer = *pl.LastAssistantMessage
		}
		sess.turnComplete(TurnCompleteParams{Usage: turnUsage(u), DurationMs: ms, Answer: answer, Reason: state.EndAnswer,
			Context: contextOf(windowOf(b), u.Context)}, now)
	})
}

// transcriptUnread logs a transcript read that failed: a warning naming the file when it was refused
// (past its bounds, not a regular file), as a person should look at it; a file not written yet is only
// debug.
func transcriptUnread(s *Table, err error, session, path, msg string) {
	ev := s.log.Debug()
	if safefile.IsLimit(err) {
		ev = s.log.Warn()
	}
	ev.Err(err).Str("sessionId", session).Str("transcript", path).Msg(msg)
}

func turnUsage(u bridge.Usage) *TurnUsage {
	if u.Calls == 0 {
		return nil
	}
	t := &TurnUsage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheCreate}
	if u.Model != "" {
		t.Model = new(u.Model)
	}
	return t
}
