package session

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// DefaultCheckWait is how long a `/saver check` typed in a harness waits for its run: under the 130 s
// timeout `saverd install` gives UserPromptSubmit, so the answer always arrives before the harness
// gives up on the hook.
const DefaultCheckWait = 110 * time.Second

// paneWidth is the width the pane is drawn at in a harness's block reason, when the hook says no
// narrower room (HookInput.Width).
const paneWidth = 100

// HookInput is one harness hook as the session API takes it: its payload read (bridge.Payload), and
// how it came.
type HookInput struct {
	Payload bridge.Payload
	// Debug makes a session the hook starts a debug session (CONTEXTSAVER_DEBUG in the hook's environment).
	Debug bool
	// Plugin: the hook is one of saverd's plugin's (saverd-hook --plugin), so the session's replies name
	// the plugin's command until the person types one.
	Plugin bool
	// Late: the daemon read the hook after the hook stopped waiting for it (the hook method's readBy):
	// its event is recorded, and its answer goes nowhere.
	Late bool
	// Width is how many columns the harness shows the hook's answer in; 0: not said (the pane is drawn at
	// paneWidth).
	Width int64
}

// Hook applies one hook of live's to its session, starting the session when the daemon does not hold
// it, and answers what the hook prints, in the harness's words, with the toasts since the last answer;
// nil prints nothing.
func (s *Table) Hook(ctx context.Context, live harness.Live, in HookInput) (*bridge.Answer, error) {
	now := s.Now(nil)
	pl := in.Payload
	sess, started, err := s.hookSession(live, in, now)
	if err != nil || sess == nil {
		return nil, err
	}
	sess.bridge.plugin.Store(in.Plugin)
	if in.Width > 0 {
		sess.bridge.columns.Store(int32(min(in.Width, paneWidth)))
	}
	ans := s.hookEvent(ctx, sess, pl, hookAt{now: now, late: in.Late, started: started})
	if in.Late { // the toasts wait for an answer someone reads
		if ans.Empty() {
			return nil, nil
		}
		return sess.bridge.inWords(ans), nil
	}
	if out := sess.bridge.inWords(bridge.WithToasts(ans, sess.takeMail())); !out.Empty() {
		return out, nil
	}
	return nil, nil
}

// hookSession finds the session a hook is for, starting it (with its transcript adopted) when the
// daemon does not hold it: a new session, a resume, or a daemon that restarted mid-session; started
// says this hook started it. nil for a SessionEnd of a session it does not hold.
func (s *Table) hookSession(live harness.Live, in HookInput, now int64) (*Session, bool, error) {
	sess, started, err := s.joinOrStart(live, in, now)
	if sess == nil || err != nil {
		return nil, false, err
	}
	s.seen(sess)
	return sess, started, nil
}

// joining is a session a hook is starting: the hooks of the same session that come meanwhile wait for
// it (done), and no other session's do.
type joining struct {
	done chan struct{}
	sess *Session // once done: the session started, nil if its start failed
}

// joinOrStart is the held session, or a new one. A start reads what a hook names (the transcript to adopt,
// the project's registry and .saverd.json) under no lock another session waits on: the parallel hooks of
// the session being started (a restart meets a burst of tool calls) wait for that one start, and every
// other session's hooks go on, however long this one takes.
func (s *Table) joinOrStart(live harness.Live, in HookInput, now int64) (sess *Session, started bool, err error) {
	pl := in.Payload
	s.mu.Lock()
	sess, j := s.sessions[pl.SessionID], s.joining[pl.SessionID]
	switch {
	case sess != nil:
		s.mu.Unlock()
	case j != nil:
		s.mu.Unlock()
		<-j.done
		if sess = j.sess; sess == nil {
			return nil, false, requestFailed("session %s failed to start", strconv.Quote(pl.SessionID))
		}
	case pl.Event == bridge.SessionEnd:
		s.mu.Unlock()
		return nil, false, nil // nothing held, nothing to end
	default:
		j = &joining{done: make(chan struct{})}
		s.joining[pl.SessionID] = j
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.joining, pl.SessionID)
			s.mu.Unlock()
			close(j.done)
		}()
		j.sess = s.startBridged(live, in, now)
		return j.sess, true, nil
	}
	if sess.bridge == nil {
		return nil, false, invalid("params.payload: session_id %s is a host's session, not a hook's", strconv.Quote(pl.SessionID))
	}
	return sess, false, nil
}

// startBridged starts a session for a harness's hooks, as session.start does for a host. A transcript
// that cannot be read (past its bounds, not a regular file) is warned of, naming it, and the session
// starts without its history.
func (s *Table) startBridged(live harness.Live, in HookInput, now int64) *Session {
	pl := in.Payload
	b := newBridged(live, pl)
	var history []intake.SessionMessage
	var before bridge.Usage // what the main loop spent before this daemon met the session
	if pl.TranscriptPath != "" {
		h, err := historyOf(live, pl.TranscriptPath)
		switch {
		case safefile.IsLimit(err):
			s.log.Warn().Err(err).Str("sessionId", pl.SessionID).Str("transcript", pl.TranscriptPath).Msg("hook: transcript refused; the session starts without its history")
		case err != nil && len(h) == 0:
			s.log.Debug().Err(err).Str("transcript", pl.TranscriptPath).Msg("hook: no transcript to adopt")
		}
		history = h
		if err == nil || !safefile.IsLimit(err) { // a file refused once is not read again
			// The reading of its usage goes on from the last whole line there now: the turns before are
			// the history, and the next turn's lines come after it.
			if u, next, err := live.TurnUsage(pl.TranscriptPath, bridge.Cursor{}); err == nil {
				before = u
				if b.model == "" {
					b.model = u.Model
				}
				b.read = next
				b.publishRead()
			}
		}
	}
	st := state.New(pl.Cwd, windowOf(b))
	var detectors bool
	st.Budget, detectors = s.settingsFor(pl.Cwd, nil, true) // the project's .saverd.json, else the defaults
	stored := s.loadPatterns(st)
	// A session with a history is rejoined as the daemon that held it left it (rejoin.go); of the fixes
	// it brings back, those its context still holds are not sent again (a resume into a context that
	// holds them sends no second copy).
	var rj *rejoin
	var held []string
	if len(history) > 0 {
		r := s.rejoinOf(pl.SessionID, pl.TranscriptPath, stored, before, b.model)
		r.act.Written = s.handledBy(pl.Cwd, pl.SessionID)
		rj = &r
		held = live.HeldTexts(pl.TranscriptPath, r.fixes)
	}
	sess := newSession(s, pl.SessionID, st, in.Debug)
	sess.stored = stored
	sess.bridge = b
	sess.detectors = detectors
	s.mu.Lock()
	s.sessions[pl.SessionID] = sess
	s.mu.Unlock()
	sess.event(func() {
		sess.noteModel(b.model, now) // priced before anything is spent: the transcript names the model
		switch {
		case pl.ContextTokens != nil:
			sess.dispatch(state.UsageSample{Usage: *contextOf(windowOf(b), max(1, *pl.ContextTokens)), Now: now})
		case before.Context > 0 && windowOf(b) > 0:
			// A session rejoined: its window is as full as its transcript's newest call left it.
			sess.dispatch(state.UsageSample{Usage: *contextOf(windowOf(b), before.Context), Now: now})
		}
		n := sess.adoptRows(history)
		if rj != nil {
			sess.dispatch(rj.act)
		}
		if len(held) > 0 {
			sess.dispatch(state.ContextHolds{Texts: held})
		}
		// A session the habit judge ran on before has had its check: its cards and decisions came back.
		sess.adopted(n, now, rj == nil || rj.act.Judge.Runs == 0)
		if pl.Event == bridge.SessionStart && pl.Source == "compact" {
			sess.compacted()
		}
	})
	return sess
}

// historyOf reads the transcript a hook named as the messages session.start adopts: the person's prompts,
// and each assistant message's tool calls with what they returned. A daemon that joins a session late (a
// resume, a restart) rebuilds its ledger from them. It is read by the reader `saverd audit` uses, within
// a hook's bounds (bridge.Limits): a file past them is an error naming it, and nothing of it is adopted.
func historyOf(live harness.Live, path string) ([]intake.SessionMessage, error) {
	tr, err := live.History(path, "", agentlog.Options{Limits: bridge.Limits()})
	return tr.Messages, err
}

// compacted records one compaction for PreCompact, PostCompact and SessionStart(compact) together,
// which a harness sends in either order and not always all three: the first of them records it, the
// rest of the same compaction do not, until another event ends it (compactionOver). Called under the lock.
func (sess *Session) compacted() {
	if !sess.bridge.compacting {
		sess.dispatch(state.Compact{})
	}
	sess.bridge.compacting = true
}

// hooked is what every hook's event begins with, before its own work: the model the payload names
// (Codex names it on every hook: the judge's fork runs the same one), and the end of a compaction (any
// hook but the three of a compaction comes after it, so the next of those is a new one). Called under the
// lock, in the hook's one event.
func (sess *Session) hooked(pl bridge.Payload) {
	if pl.Model != "" {
		sess.bridge.model = pl.Model
	}
	switch {
	case pl.Event == bridge.PreCompact, pl.Event == bridge.PostCompact:
	case pl.Event == bridge.SessionStart && pl.Source == "compact":
	default:
		sess.bridge.compacting = false
	}
}

// restart is a SessionStart for a session the daemon held before it: a resume carries on, a clear
// starts the session over, a compaction is recorded (once, with PreCompact). Called under the lock.
func (sess *Session) restart(pl bridge.Payload) {
	b := sess.bridge
	if pl.TranscriptPath != "" && pl.TranscriptPath != b.transcript {
		// Another log: what it holds is this session's past, read before the daemon saw it.
		b.transcript, b.read, b.ended = pl.TranscriptPath, bridge.Cursor{Off: bridge.Size(pl.TranscriptPath)}, false
		b.publish()
		b.publishRead()
	}
	switch pl.Source {
	case "clear":
		sess.resetSession()
	case "compact":
		sess.compacted()
	}
}

// hookAt is when a hook came and how: its time, whether it was read after its hook stopped waiting
// (HookInput.Late), and whether it started its session.
type hookAt struct {
	now     int64
	late    bool
	started bool
}

// hookEvent applies one hook to its session, as one ordered event, and answers it; what it reads of a
// log is read before the event (a `/saver check` that waits for its run takes one more, once the run
// has ended). A late hook's event is recorded, but nothing is delivered for it and no saverd command
// runs: nobody reads its answer.
func (s *Table) hookEvent(ctx context.Context, sess *Session, pl bridge.Payload, at hookAt) *bridge.Answer {
	now, late := at.now, at.late
	switch pl.Event {
	case bridge.SessionStart:
		// What the session's context is owed from its start: the notes and standing instructions it does
		// not hold yet (a new context after a compaction, a resume into one rebuilt without them; a clear
		// starts the session over, and owes nothing of before).
		var texts []string
		sess.event(func() {
			if !at.started {
				sess.restart(pl)
			}
			sess.hooked(pl)
			sess.bridge.unheard(late, func() { texts = sess.owedMain(true) })
		})
		return bridge.Context(bridge.SessionStart, texts)
	case bridge.UserPromptSubmit:
		return s.promptHook(ctx, sess, pl, now, late)
	case bridge.PreToolUse:
		return sess.preToolUse(pl, now, late)
	case bridge.PostToolUse, bridge.PostToolUseFailure:
		return s.postToolUse(sess, pl, now, late)
	case bridge.SubagentStart:
		sess.event(func() {
			sess.hooked(pl)
			sess.bridge.agents[pl.AgentID] = now
			sess.bridge.publish()
			sess.dispatch(state.AgentStart{AgentID: pl.AgentID})
		})
	case bridge.SubagentStop:
		s.subagentStop(sess, pl, now)
	case bridge.Stop:
		s.stop(sess, pl, now)
	case bridge.PreCompact, bridge.PostCompact:
		sess.event(func() {
			sess.hooked(pl)
			sess.compacted()
		})
	case bridge.SessionEnd:
		// The harness gives SessionEnd hooks little time: answered at once, flushed in the background.
		// The session stays for a resume; the daemon's idle exit lets it go.
		var transcript string
		var saver *agentlog.Saver
		s.lateEvent(sess, pl, now, func() {
			transcript = sess.bridge.transcript
			saver = saverOf(sess.st)
		})
		live := sess.bridge.live // fixed at the session's start
		s.background(func() {
			sess.flush()
			s.recordSession(live, transcript, saver)
		})
	}
	return nil
}

// promptHook is UserPromptSubmit, as one event after the last turn's late usage: a `/saver …` line
// typed runs the command and blocks the line with its reply; any other prompt starts a turn and carries
// the notes and the standing fixes.
func (s *Table) promptHook(ctx context.Context, sess *Session, pl bridge.Payload, now int64, late bool) *bridge.Answer {
	name, args, typed := bridge.SaverArgs(pl.Prompt)
	if !typed {
		var out []string
		s.lateEvent(sess, pl, now, func() { out = sess.typedPrompt(pl, now, late) })
		return bridge.Context(pl.Event, out)
	}
	if late {
		s.lateEvent(sess, pl, now, func() {})
		s.log.Warn().Str("sessionId", sess.id).Str("prompt", pl.Prompt).Msg("hook: a saverd command read after its hook stopped waiting; not run")
		return sess.bridge.live.BlockPrompt("ContextSaver: saverd read " + strings.TrimSpace(pl.Prompt) +
			" after its hook had stopped waiting (the daemon was stopped or too busy), so it did not run it: type it again")
	}
	sess.bridge.typedCommand(name)
	var reply string
	var wait chan struct{}
	s.lateEvent(sess, pl, now, func() { reply, wait = sess.saverTyped(args, now) })
	return sess.bridge.live.BlockPrompt(s.saverReply(ctx, sess, reply, wait))
}
