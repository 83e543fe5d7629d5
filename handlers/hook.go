package handlers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/textview"
)

// DefaultCheckWait is how long a `/saver check` typed in a harness waits for its run: under the 130 s
// timeout `saverd install` gives UserPromptSubmit, so the answer always arrives before the harness
// gives up on the hook.
const DefaultCheckWait = 110 * time.Second

// paneWidth is the width the pane is drawn at in a harness's block reason.
const paneWidth = 100

// HookParams is the hook method's params: one harness hook, its payload as the harness wrote it.
type HookParams struct {
	Harness string          `json:"harness"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
	// Debug makes a session the hook starts a debug session (CONTEXTSAVER_DEBUG in the hook's environment).
	Debug bool `json:"debug,omitempty"`
}

// HookResult is what the hook prints on its standard output; output null prints nothing.
type HookResult struct {
	Output *bridge.Answer `json:"output"`
}

// hook is one harness hook: the payload mapped onto the session methods, the answer in the harness's
// own words, and the toasts since the last answer as its systemMessage. protocol.md has the table.
func (s *Server) hook(ctx context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[HookParams](raw)
	if err != nil {
		return nil, err
	}
	switch p.Harness {
	case "", bridge.Claude:
		p.Harness = bridge.Claude
	case bridge.Codex:
	default:
		return nil, rpc.InvalidParams("params.harness: want claude-code or codex, got %q", p.Harness)
	}
	if !bridge.Known(p.Event) {
		return nil, rpc.InvalidParams("params.event: unknown hook event %q (want one of %s)", p.Event, strings.Join(bridge.Events, ", "))
	}
	pl, err := bridge.Parse(p.Event, p.Payload)
	if err != nil {
		return nil, rpc.InvalidParams("params.payload: %v", err)
	}
	now := s.now(nil)
	sess, ans, err := s.hookSession(p, pl, now)
	if err != nil {
		return nil, err
	}
	if sess == nil {
		return HookResult{}, nil
	}
	if pl.Model != "" { // Codex names the model on every hook: the judge's fork runs the same one
		sess.event(func() { sess.bridge.model = pl.Model })
	}
	if ans == nil {
		ans = s.hookEvent(ctx, sess, pl, now)
	}
	if out := bridge.WithToasts(ans, sess.takeMail()); !out.Empty() {
		return HookResult{Output: out}, nil
	}
	return HookResult{}, nil
}

// hookSession finds the session a hook is for, starting it (with its transcript adopted) when the
// daemon does not hold it: a new session, a resume, or a daemon that restarted mid-session. A
// SessionStart is answered here.
func (s *Server) hookSession(p HookParams, pl bridge.Payload, now int64) (*Session, *bridge.Answer, error) {
	// One join at a time: the parallel hooks of a session the daemon does not hold yet (a restart
	// meets a burst of tool calls) must start it once, not each its own copy.
	s.joinMu.Lock()
	s.mu.Lock()
	sess := s.sessions[pl.SessionID]
	s.mu.Unlock()
	if sess != nil && sess.bridge == nil {
		s.joinMu.Unlock()
		return nil, nil, &rpc.Error{Code: rpc.CodeInvalidParams, Message: "params.payload: session_id " + strconv.Quote(pl.SessionID) + " is a host's session, not a hook's"}
	}
	switch {
	case sess == nil && pl.Event == bridge.SessionEnd:
		s.joinMu.Unlock()
		return nil, nil, nil // nothing held, nothing to end
	case sess == nil:
		sess = s.startBridged(p, pl, now)
		s.joinMu.Unlock()
	default:
		s.joinMu.Unlock()
		if pl.Event == bridge.SessionStart {
			sess.event(func() { sess.restart(pl) })
		}
	}
	s.seen(sess)
	if pl.Event != bridge.SessionStart {
		return sess, nil, nil
	}
	var texts []string
	sess.event(func() { texts = sess.standingTexts() })
	if a := bridge.Context(bridge.SessionStart, texts); a != nil {
		return sess, a, nil
	}
	return sess, &bridge.Answer{}, nil
}

// startBridged starts a session for a harness's hooks, as session.start does for a host.
func (s *Server) startBridged(p HookParams, pl bridge.Payload, now int64) *Session {
	b := newBridged(p.Harness, pl)
	var history []state.SessionMessage
	if pl.TranscriptPath != "" {
		h, err := bridge.History(pl.TranscriptPath)
		if err != nil && len(h) == 0 {
			s.log.Debug().Err(err).Str("transcript", pl.TranscriptPath).Msg("hook: no transcript to adopt")
		}
		history = h
		if u, end, err := bridge.ReadUsage(pl.TranscriptPath, 0); err == nil {
			if b.model == "" {
				b.model = u.Model
			}
			b.turnFrom = end
		}
	}
	st := state.New(pl.Cwd, windowOf(b))
	st.Budget = s.budgetFor(pl.Cwd, nil) // the project's .saverd.json, else the default
	stored := s.loadPatterns(st)
	sess := newSession(s, pl.SessionID, st, p.Debug)
	sess.stored = stored
	sess.bridge = b
	s.mu.Lock()
	s.sessions[pl.SessionID] = sess
	s.mu.Unlock()
	sess.event(func() {
		if pl.ContextTokens != nil {
			sess.dispatch(state.UsageSample{Usage: *contextOf(windowOf(b), max(1, *pl.ContextTokens)), Now: now})
		}
		sess.adopt(history, now)
		if pl.Event == bridge.SessionStart && pl.Source == "compact" {
			sess.dispatch(state.Compact{})
		}
	})
	return sess
}

// restart is a SessionStart for a session the daemon holds: a resume carries on, a clear starts the
// session over, a compaction is recorded. Called under the lock.
func (sess *Session) restart(pl bridge.Payload) {
	b := sess.bridge
	if pl.TranscriptPath != "" {
		b.transcript = pl.TranscriptPath
	}
	switch pl.Source {
	case "clear":
		sess.resetSession()
	case "compact":
		if !b.compacting {
			sess.dispatch(state.Compact{})
		}
		b.compacting = false
	}
}

// hookEvent answers every hook but SessionStart.
func (s *Server) hookEvent(ctx context.Context, sess *Session, pl bridge.Payload, now int64) *bridge.Answer {
	switch pl.Event {
	case bridge.UserPromptSubmit:
		if args, ok := bridge.SaverArgs(pl.Prompt); ok {
			return bridge.Block(s.saverTyped(ctx, sess, args, now))
		}
		return bridge.Context(pl.Event, sess.typedPrompt(pl, now))
	case bridge.PreToolUse:
		return sess.preToolUse(pl, now)
	case bridge.PostToolUse, bridge.PostToolUseFailure:
		return s.postToolUse(sess, pl, now)
	case bridge.SubagentStart:
		sess.event(func() {
			sess.bridge.agents[pl.AgentID] = now
			sess.dispatch(state.AgentStart{AgentID: pl.AgentID})
		})
	case bridge.SubagentStop:
		s.subagentStop(sess, pl, now)
	case bridge.Stop:
		s.stop(sess, pl, now)
	case bridge.PreCompact:
		sess.event(func() {
			sess.dispatch(state.Compact{})
			sess.bridge.compacting = true
		})
	case bridge.PostCompact:
		sess.event(func() {
			if !sess.bridge.compacting {
				sess.dispatch(state.Compact{})
			}
			sess.bridge.compacting = false
		})
	case bridge.SessionEnd:
		// The harness gives SessionEnd hooks little time: answered at once, flushed in the background.
		// The session stays for a resume; the daemon's idle exit lets it go.
		var harness, transcript string
		sess.event(func() { harness, transcript = sess.bridge.harness, sess.bridge.transcript })
		s.background(func() {
			sess.flush()
			s.recordSession(harness, transcript)
		})
	}
	return nil
}

// typedPrompt is a prompt that is no `/saver` command: a turn starts, and the prompt carries the notes
// and the standing fixes.
func (sess *Session) typedPrompt(pl bridge.Payload, now int64) []string {
	kind := "composer"
	if bridge.IsTaskNotification(pl.Prompt) {
		kind = "task"
	}
	var out []string
	sess.event(func() {
		b := sess.bridge
		b.turnAt = now
		if b.transcript != "" {
			b.turnFrom = bridge.Size(b.transcript)
		}
		sess.dispatch(turnStartAction(now))
		out = sess.promptSubmit(PromptSubmitParams{Text: pl.Prompt, Origin: &Origin{Kind: kind}}, now)
	})
	return out
}

// saverTyped runs `/saver …` typed in the prompt box; its reply is what the person reads. `/saver`
// alone shows the pane as text; `/saver check` waits for its run and shows the cards it found.
func (s *Server) saverTyped(ctx context.Context, sess *Session, args string, now int64) string {
	switch firstField(args) {
	case "", "rules":
		var text string
		sess.event(func() { text = sess.paneText() })
		return joinText(joinText(sess.takeMail()...), text)
	case "check":
		var reply string
		var wait chan struct{}
		sess.event(func() {
			reply = sess.saver(args, now)
			if sess.flags.forking || sess.st.Judge.Running {
				wait = make(chan struct{})
				sess.runWaiters = append(sess.runWaiters, wait)
			}
		})
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
			return reply + "\nContextSaver: still checking — the cards will show on `/saver` and in the next answers"
		case <-ctx.Done():
			return reply
		}
		var pane string
		sess.event(func() { pane = sess.paneText() })
		return joinText(joinText(sess.takeMail()...), pane)
	}
	var reply string
	sess.event(func() { reply = sess.saver(args, now) })
	return joinText(joinText(sess.takeMail()...), reply)
}

// paneText is the pane drawn as text. Called under the lock.
func (sess *Session) paneText() string {
	return textview.Pane(state.BuildPane(sess.st, sess.proposals()), paneWidth)
}

// preToolUse rewrites an Agent (or Task) call's prompt with the standing fixes: the whole input goes
// back, since the harness replaces the input with what the hook answers.
func (sess *Session) preToolUse(pl bridge.Payload, now int64) *bridge.Answer {
	sess.event(func() { sess.bridge.callStarted(pl.ToolUseID, now) })
	if !bridge.IsAgentTool(pl.ToolName) {
		return nil
	}
	prompt, ok := bridge.AgentPrompt(pl.ToolInput)
	if !ok {
		return nil
	}
	var rewritten string
	sess.event(func() {
		standing := sess.st.Standing
		if len(standing) == 0 {
			return
		}
		sess.dispatch(state.DeliveryPending{Delta: 1})
		sess.spawnSeq++
		id := "spawn-" + strconv.Itoa(sess.spawnSeq)
		sess.openSpawn(id)
		sess.bridge.spawns[pl.ToolUseID] = id
		rewritten = prompt + "\n\n" + strings.Join(standing, "\n")
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
func (s *Server) postToolUse(sess *Session, pl bridge.Payload, now int64) *bridge.Answer {
	var out []string
	sess.event(func() {
		if sess.recorded(pl.ToolUseID) {
			return // already a row: adopted from the transcript when the daemon joined this session
		}
		pl.DurationMs = sess.bridge.callMs(pl, now)
		tc, err := bridge.ToolCallOf(pl, sess.agentOfCall(pl))
		if err != nil {
			s.log.Warn().Err(err).Str("session", sess.id).Msg("hook: tool call not recorded")
			return
		}
		out = sess.toolCall(tc.Event, tc.Result, tc.Ms, now)
		if id, ok := sess.bridge.spawns[pl.ToolUseID]; ok {
			delete(sess.bridge.spawns, pl.ToolUseID)
			sess.spawned(id, bridge.AgentIDOf(pl.ToolResponse), now)
		}
	})
	return bridge.Context(pl.Event, out)
}

// subagentStop is a subagent's turn: its cost (from its own transcript) and how it ended go on its loop.
func (s *Server) subagentStop(sess *Session, pl bridge.Payload, now int64) {
	var u bridge.Usage
	if pl.AgentTranscriptPath != "" {
		u, _, _ = bridge.ReadSubagentUsage(pl.AgentTranscriptPath)
	}
	sess.event(func() {
		started, ok := sess.bridge.agents[pl.AgentID]
		delete(sess.bridge.agents, pl.AgentID)
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

// stop is the main loop's turn ending: its usage and the window read from the transcript.
func (s *Server) stop(sess *Session, pl bridge.Payload, now int64) {
	var from int64
	var path string
	sess.event(func() { from, path = sess.bridge.turnFrom, sess.bridge.transcript })
	var u bridge.Usage
	end := from
	if path != "" {
		var err error
		if u, end, err = bridge.ReadUsage(path, from); err != nil {
			s.log.Debug().Err(err).Str("transcript", path).Msg("hook: turn usage unread")
		}
	}
	sess.event(func() {
		b := sess.bridge
		b.turnFrom = end
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

func turnUsage(u bridge.Usage) *TurnUsage {
	if u.Calls == 0 {
		return nil
	}
	t := &TurnUsage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheCreate}
	if u.Model != "" {
		t.Model = state.Ptr(u.Model)
	}
	return t
}

// StatuslineParams is the statusline method's params: Claude Code's status line input, as it wrote it.
type StatuslineParams struct {
	Payload json.RawMessage `json:"payload"`
	Width   int             `json:"width,omitempty"`
}

// statusline draws a bridged session's band as one line for the harness's status line, and takes the
// window size the status line input reports (hooks do not). An unknown session draws nothing.
func (s *Server) statusline(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[StatuslineParams](raw)
	if err != nil {
		return nil, err
	}
	var in struct {
		SessionID     string `json:"session_id"`
		ContextWindow *struct {
			Size *int64 `json:"context_window_size"`
		} `json:"context_window"`
		Model *struct {
			ID string `json:"id"`
		} `json:"model"`
	}
	if err := json.Unmarshal(p.Payload, &in); err != nil {
		return nil, rpc.InvalidParams("params.payload: %v", err)
	}
	s.mu.Lock()
	sess := s.sessions[in.SessionID]
	s.mu.Unlock()
	text := ""
	if sess == nil || sess.bridge == nil {
		return TextResult{Text: &text}, nil
	}
	width := p.Width
	if width < textview.MinWidth || width > maxWidth {
		width = defaultWidth
	}
	now := s.now(nil)
	sess.event(func() {
		b := sess.bridge
		if in.Model != nil && in.Model.ID != "" {
			b.model = in.Model.ID
		}
		if in.ContextWindow != nil && in.ContextWindow.Size != nil && *in.ContextWindow.Size > 0 && *in.ContextWindow.Size != b.window {
			b.window = *in.ContextWindow.Size
			sess.dispatch(state.UsageSample{Usage: state.Usage{Window: b.window}, Now: now})
		}
		text, _, _ = strings.Cut(textview.Band(state.BuildBandAt(sess.st, now), width), "\n")
	})
	return TextResult{Text: &text}, nil
}

// recordSession appends the session's record, read from its transcript, to the sessions log. A session
// resumed and ended again is appended again: its last record covers all of it.
func (s *Server) recordSession(harness, transcript string) {
	if s.opt.SessionsLog == "" || transcript == "" {
		return
	}
	var rec agentlog.Record
	opt := agentlog.Options{Prices: priceTable(s)}
	var err error
	if harness == bridge.Codex {
		rec, err = agentlog.ReadCodexRollout(transcript, opt)
	} else {
		rec, err = agentlog.ReadClaudeSession(transcript, opt)
	}
	if err == nil {
		err = agentlog.AppendRecord(s.opt.SessionsLog, rec)
	}
	if err != nil {
		s.log.Warn().Err(err).Str("transcript", transcript).Msg("session record not written")
	}
}

// priceTable is the embedded prices with the person's overrides (<config dir>/prices.json), as
// `saverd sessions` prices them; a file that does not parse is logged and the embedded table used.
func priceTable(s *Server) *prices.Table {
	dir, err := paths.ConfigDir()
	if err != nil {
		return nil
	}
	tab, err := prices.LoadFile(filepath.Join(dir, "prices.json"))
	if err != nil {
		s.log.Warn().Err(err).Msg("price overrides unreadable; the embedded prices apply")
		return nil
	}
	return tab
}
