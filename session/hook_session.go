package session

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state"
)

// maxMail bounds the toasts a bridged session keeps for its next hook answer: a session nobody answers
// for hours keeps its newest few, not all.
const maxMail = 8

// bridged is what the hook bridge keeps beside a session a harness's hooks feed: what the hook payloads
// leave out and the next answers need. Guarded by the session's lock.
type bridged struct {
	live harness.Live // the harness the hooks come from; fixed at the session's start
	// typed is the spelling of saverd's command the person typed last in this session (one the harness
	// takes: its own or its plugin's), and plugin that the hooks come through saverd's plugin (--plugin):
	// the replies name the commands so (Session.command). Any goroutine may read them.
	typed  atomic.Pointer[string]
	plugin atomic.Bool
	// columns is the room the harness last said it shows a hook's answer in (HookInput.Width, at most
	// paneWidth); 0 while no hook said. Any goroutine may read it.
	columns    atomic.Int32
	transcript string
	cwd        string
	model      string
	window     int64
	// read is where the hooks' reading of the transcript stopped (hook_usage.go); readMu is held across
	// one read and the event that applies it, so two reads never count the same lines. pos is the
	// transcript, read and ended as a hook reads them before it takes the lock, published under the lock
	// whenever one changes (publishRead). Any goroutine may read pos.
	read   bridge.Cursor
	readMu sync.Mutex
	pos    atomic.Pointer[readPos]
	// ended: a Stop ended the last turn and no prompt began the next, so the lines after read are that
	// turn's, written after its Stop.
	ended    bool
	turnAt   int64
	turnOpen bool // a prompt started a turn and no Stop ended it yet
	// spawns: an Agent call's tool_use_id → the spawn its PreToolUse rewrite opened.
	spawns map[string]string
	// agents: the subagents running now (SubagentStart seen, no SubagentStop yet) → when they started.
	agents map[string]int64
	// calls: a tool call's PreToolUse time, for a PostToolUse that carries no duration (Codex's).
	calls map[string]int64
	// compacting: a compaction's first hook recorded it; the others of the same one must not (compacted).
	compacting bool
	// callers is what a PostToolUse reads before it takes the lock (CallAgent): the transcript and the
	// subagents running, published under the lock whenever either changes (publish). Any goroutine may
	// read it.
	callers atomic.Pointer[callers]
	// mute: the answer being made goes nowhere (its hook stopped waiting before the daemon read it), so
	// nothing is delivered, drained or counted as sent. Set within one event only (unheard).
	mute bool
}

// unheard runs fn, an event's work, with what it would deliver held back when late: the hook that asked
// no longer waits, and what it is owed goes with a later answer. Called under the lock.
func (b *bridged) unheard(late bool, fn func()) {
	b.mute = late
	defer func() { b.mute = false }()
	fn()
}

// muted reports whether the session's answer now goes nowhere (bridged.mute). Called under the lock.
func (sess *Session) muted() bool { return sess.bridge != nil && sess.bridge.mute }

func newBridged(live harness.Live, p bridge.Payload) *bridged {
	b := &bridged{live: live, transcript: p.TranscriptPath, cwd: p.Cwd, model: p.Model,
		spawns: map[string]string{}, agents: map[string]int64{}, calls: map[string]int64{}}
	b.publish()
	b.publishRead()
	return b
}

// callers is the transcript a tool call's hook looks in for the subagent that made it, and the
// subagents running, in a fixed order.
type callers struct {
	transcript string
	agents     []string
}

// publish makes the transcript and the subagents running now what callers gives. Called under the lock
// (or before the session is shared), after either changed.
func (b *bridged) publish() {
	b.callers.Store(&callers{transcript: b.transcript, agents: b.runningAgents()})
}

// maxCalls bounds the PreToolUse times kept: a call whose PostToolUse never came is not held forever.
const maxCalls = 256

// callStarted keeps when a tool call started. Called under the lock.
func (b *bridged) callStarted(id string, now int64) {
	if id == "" {
		return
	}
	if len(b.calls) >= maxCalls {
		clear(b.calls)
	}
	b.calls[id] = now
}

// sinceStart is how long ago a call's PreToolUse came, for a PostToolUse that carries no duration
// (Codex's); the call is forgotten either way. Called under the lock.
func (b *bridged) sinceStart(id string, now int64) (int64, bool) {
	started, ok := b.calls[id]
	delete(b.calls, id)
	return max(0, now-started), ok
}

// recentRows is how far back recorded looks: a call adopted from the transcript at a join is among the
// newest rows, and a hook delivered twice comes right after its first.
const recentRows = 64

// recorded reports whether a newest row already records the call id. Called under the lock.
func (sess *Session) recorded(id string) bool {
	rows := sess.st.Rows
	for i := len(rows) - 1; i >= 0 && i >= len(rows)-recentRows; i-- {
		if rows[i].ID == id {
			return true
		}
	}
	return false
}

// forkHost is the host to fork this session through, or why there is none. Called under the lock.
func (sess *Session) forkHost() (Host, error) {
	host, ok := sess.srv.forker()
	if !ok {
		return nil, errNoHostFork
	}
	if c, ok := host.(ForkChecker); ok {
		if err := c.Unavailable(sess.forkRequest("judge", "")); err != nil {
			return nil, err
		}
	}
	return host, nil
}

// forkRequest is the fork of this session for purpose: a bridged session's fork carries what a fork the
// daemon runs itself needs. Called under the lock.
func (sess *Session) forkRequest(purpose, prompt string) ForkRequest {
	req := ForkRequest{SessionID: sess.id, Purpose: purpose, Prompt: prompt}
	if b := sess.bridge; b != nil {
		req.Harness, req.Cwd, req.Model = string(b.live.ID()), b.cwd, b.model
	}
	return req
}

// post keeps a bridged session's toast for the next hook answer.
func (sess *Session) post(n note) {
	if n.method != NotifyToast {
		return
	}
	t, ok := n.params.(Toast)
	if !ok {
		return
	}
	sess.mailMu.Lock()
	sess.mail = append(sess.mail, t.Text)
	if len(sess.mail) > maxMail {
		sess.mail = append(sess.mail[:0], sess.mail[len(sess.mail)-maxMail:]...)
	}
	sess.mailMu.Unlock()
}

// bridgedFound tells the person in a harness what a run nobody asked for found: there is no pane to
// open, so the next hook answer says it, with the commands that show and fix the cards. Called under
// the lock.
func (sess *Session) bridgedFound(queued []string) { sess.foundToast(queued, "") }

// foundToast says the new cards queued in the harness's next hook answer, how (", found without a model"
// or "") after the count: one card is named with the commands that fix or ignore it — "shows them …
// fixes the first" would read oddly of one, above the pane that shows it —, more with the ones that show
// them and fix the first. Called under the lock.
func (sess *Session) foundToast(queued []string, how string) {
	if sess.bridge == nil || len(queued) == 0 {
		return
	}
	cmd := sess.command()
	n := strconv.Itoa(sess.seatOf(queued[0]))
	if p := sess.st.PatternByID(queued[0]); len(queued) == 1 && p != nil {
		sess.toast("ContextSaver: 1 new waster" + how + ": " + p.Kind + " — " + cmd + " fix " + n + " fixes it, " + cmd + " ignore " + n + " if it is fine")
		return
	}
	sess.toast(checkedText(len(queued), "") + how + " — " + cmd + " shows them, " + cmd + " fix " + n + " fixes the first")
}

// command is how the session's person types saverd's command: the spelling they typed last in this
// session, else the route's (the plugin's spelling, `/saver:saver`, when the hooks come through saverd's
// plugin: a harness with only the plugin knows no other), else the harness's own; a host's pane says
// /saver. Any goroutine may ask.
func (sess *Session) command() string {
	b := sess.bridge
	if b == nil {
		return saverline.Slash
	}
	if t := b.typed.Load(); t != nil {
		return *t
	}
	if b.plugin.Load() {
		return saverline.Plugin(b.live.Command())
	}
	return b.live.Command()
}

// typedCommand keeps the spelling the person just typed, when it is one the harness takes as typed (a
// Codex person's ` /saver` with a leading space reaches the hook, but `/saver` alone would not).
func (b *bridged) typedCommand(name string) {
	if own := b.live.Command(); name == own || name == saverline.Plugin(own) {
		b.typed.Store(&name)
	}
}

// inWords is an answer as the session's person reads it: the judge's template and the detectors name
// the agent "Claude" in a kind ("Claude keeps re-running …"), which another harness's person reads with
// its own agent's name. Only what the person reads changes; what the model reads (additionalContext)
// is left as it is.
func (b *bridged) inWords(a *bridge.Answer) *bridge.Answer {
	agent := b.live.Agent()
	if a == nil || agent == kindsAgent {
		return a
	}
	a.Reason = agentNamed(a.Reason, agent)
	a.SystemMessage = agentNamed(a.SystemMessage, agent)
	return a
}

// kindsAgent is the agent's name as the kinds say it.
const kindsAgent = "Claude"

// kindsLead is how every kind begins (the judge's reply is refused otherwise, and the detectors write
// theirs so): only that phrase is a kind's agent, so a command, a path, a rule's text or a note the
// person typed that says "Claude" is shown as it is.
const kindsLead = kindsAgent + " keeps "

// agentNamed is text with each kind's "Claude keeps" read as agent's ("Codex keeps").
func agentNamed(text, agent string) string {
	return strings.ReplaceAll(text, kindsLead, agent+" keeps ")
}

// takeMail hands over the toasts kept for the next answer.
func (sess *Session) takeMail() []string {
	sess.mailMu.Lock()
	defer sess.mailMu.Unlock()
	m := sess.mail
	sess.mail = nil
	return m
}

// runningAgents are the subagents running now, in a fixed order. Called under the lock.
func (b *bridged) runningAgents() []string {
	if len(b.agents) == 0 {
		return nil
	}
	ids := make([]string, 0, len(b.agents))
	for id := range b.agents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// joinText is the text a block reason shows: the toasts the command produced, then its own reply.
func joinText(parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

// windowOf is the window to assume for a bridged session: the harness's figure when one was given,
// else the model's.
func windowOf(b *bridged) int64 {
	if b.window > 0 {
		return b.window
	}
	return bridge.ModelWindow(b.model)
}

// contextOf is a window sample from a context figure; nil without one.
func contextOf(window, tokens int64) *state.Usage {
	if window <= 0 || tokens <= 0 {
		return nil
	}
	pct := jstext.Round(float64(tokens)*1000/float64(window)) / 10
	return &state.Usage{Window: window, Tokens: &tokens, Percent: &pct}
}
