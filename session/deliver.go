package session

import (
	"slices"

	"github.com/saverd/saverd/state"
)

// What saverd puts into the agent's context, and what it costs. A standing instruction reaches the main
// loop once per context: the context keeps what a prompt or a tool result carried (Claude Code and Codex
// both keep a hook's additionalContext in the history, and a host keeps what it appended to a prompt), so
// re-sending it with every prompt only stacked copies — by a sixth prompt a request held five. It goes out
// again after a compaction, a resume into a context that no longer holds it, or when it changes (a clear
// starts the session over, standing instructions included, as ContextSaver's reset did).
// Every text sent is spend (state.Injected), beside the judge's.

// owedMain is what the main loop is owed now: the one-time notes, then every standing instruction, each
// once and only when the context does not already hold it. Whatever it returns is marked delivered and
// counted as spend, and the notes are drained. ahead: it goes out before the next turn's prompt (a
// SessionStart's answer). Called under the lock.
func (sess *Session) owedMain(ahead bool) []string {
	return sess.deliver(ahead, sess.st.Notes, sess.st.Standing)
}

// owedNotes is the one-time notes a main-loop tool result carries, each once per context, drained and
// counted as spend. Called under the lock.
func (sess *Session) owedNotes() []string {
	return sess.deliver(false, sess.st.Notes)
}

// deliver is the texts of lists, in order and once each, that the main loop's context does not hold:
// marked delivered and counted as spend; the notes are drained. Called under the lock.
func (sess *Session) deliver(ahead bool, lists ...[]string) []string {
	if sess.muted() {
		return nil
	}
	var out []string
	for _, texts := range lists {
		for _, t := range texts {
			if !slices.Contains(sess.st.Delivered, t) && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	if len(sess.st.Notes) > 0 {
		sess.dispatch(state.NotesDrained{})
	}
	if len(out) > 0 {
		sess.observe(state.Injected{Texts: out, Main: true, Ahead: ahead})
	}
	return out
}

// injected counts texts sent into a subagent's context as spend, at the session model's price. Called
// under the lock.
func (sess *Session) injected(texts []string) {
	if len(texts) > 0 {
		sess.observe(state.Injected{Texts: texts})
	}
}
