package session

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// The files ContextSaver read through its host — workflow journals and scripts — the daemon reads itself.

// maxFileRead bounds one journal or script read: a journal is small, and a runaway file must not stall a hook.
const maxFileRead = 16 << 20

// fileReadTimeout bounds one journal or script read: a file on a hung mount must not hold up a hook.
const fileReadTimeout = 2 * time.Second

func (sess *Session) resolve(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(sess.st.Cwd, path)
}

// readText is a journal's or a script's text. Only a regular file is read: a FIFO where a journal is
// expected blocked the open, and the daemon with it, for good. A file past maxFileRead is read no
// further than that, as before.
func readText(path string) (string, bool) {
	b, err := safefile.HeadWithin(path, maxFileRead, fileReadTimeout)
	if err != nil {
		return "", false
	}
	return string(b), true
}

type journalRead struct {
	runID   string
	entries []state.JournalEntry
}

// dueRuns is the journals to read now: every run's when forced (a launch reads its own at once, and the
// judge reads them all before it asks), else the active runs not read for RunRefreshMs. Under the lock.
func (sess *Session) dueRuns(force bool, now int64) (ids, paths []string) {
	runs := sess.st.Runs
	if !force {
		runs = state.ActiveRuns(sess.st, now)
	}
	for i := range runs {
		r := &runs[i]
		if !force && now-r.RefreshedAt < state.RunRefreshMs {
			continue
		}
		ids = append(ids, r.ID)
		paths = append(paths, state.JournalPath(r))
	}
	return ids, paths
}

// readJournals reads the due journals with no lock held. A read that fails still stamps the run (empty
// entries), so it is not retried at once.
func (sess *Session) readJournals(ids, paths []string) []journalRead {
	out := make([]journalRead, 0, len(ids))
	for i, id := range ids {
		if paths[i] == "" {
			continue
		}
		text, ok := readText(sess.resolve(paths[i]))
		var entries []state.JournalEntry
		if ok {
			entries = intake.ParseJournal(text)
		}
		out = append(out, journalRead{runID: id, entries: entries})
	}
	return out
}

func (sess *Session) applyJournals(reads []journalRead, now int64) {
	for _, r := range reads {
		sess.dispatch(state.RunJournal{RunID: r.runID, Entries: r.entries, Now: now})
	}
}

// refreshRuns brings the due journals up to date from a background run (the lock is not held).
func (sess *Session) refreshRuns(force bool, now int64) {
	var ids, paths []string
	sess.event(func() { ids, paths = sess.dueRuns(force, now) })
	sess.readAndApply(ids, paths, now)
}

// readAndApply reads the named journals with no lock held, then applies them as one event.
func (sess *Session) readAndApply(ids, paths []string, now int64) {
	if len(ids) == 0 {
		return
	}
	reads := sess.readJournals(ids, paths)
	sess.event(func() { sess.applyJournals(reads, now) })
}

// refreshRunsLocked does the same inside an event: ContextSaver awaited this read in the hook.
func (sess *Session) refreshRunsLocked(force bool, now int64) {
	ids, paths := sess.dueRuns(force, now)
	if len(ids) > 0 {
		sess.applyJournals(sess.readJournals(ids, paths), now)
	}
}

// refreshRunsLater reads the due journals in the background; the hook is answered at once. Which are
// due is decided here, once, on the hook's own state.
func (sess *Session) refreshRunsLater(force bool, now int64) {
	if len(sess.st.Runs) == 0 {
		return
	}
	ids, paths := sess.dueRuns(force, now)
	if len(ids) > 0 {
		sess.afterEvent(func() { sess.readAndApply(ids, paths, now) })
	}
}

// readPhases reads the phases a launch's script declares, as a literal, never run; a script we cannot
// read declares none. Runs with no lock held.
func (sess *Session) readPhases(runID string, value any) {
	obj, ok := value.(map[string]any)
	if !ok {
		return
	}
	path, ok := obj["scriptPath"].(string)
	if !ok {
		return
	}
	script, ok := readText(sess.resolve(path))
	if !ok {
		return
	}
	phases := intake.PhasesOf(script)
	sess.event(func() { sess.dispatch(state.RunPhases{RunID: runID, Phases: phases}) })
}

// isNamed: a loop a journal or an Agent result named; the engine's own forks are named by neither.
func (sess *Session) isNamed(agentID string) bool {
	l := sess.st.LoopByID(agentID)
	return l != nil && (l.Run != nil || l.Label != nil)
}

// standingSettled says whether agentID is owed no standing fixes on any call: there are none, a delivery
// waits on a prompt, or it has had them. Recording a tool call changes none of these (decisions,
// prompts, deliveries and a rejoin do).
func (sess *Session) standingSettled(agentID string) bool {
	st := sess.st
	return len(st.Standing) == 0 || st.Delivery.Pending > 0 || slices.Contains(st.Delivery.Agents, agentID)
}

// owedTo is the standing fixes an agent the spawn rewrite missed is owed on its first call; a spawn in
// flight counts as reached. Under the lock.
func (sess *Session) owedTo(agentID string, now int64) []string {
	if sess.standingSettled(agentID) {
		return nil
	}
	st := sess.st
	// A workflow agent calls before the journal that names it was re-read: read it once more for that id.
	if !sess.isNamed(agentID) && !st.Probed[agentID] && len(state.ActiveRuns(st, now)) > 0 {
		sess.observe(state.LoopProbed{AgentID: agentID})
		sess.refreshRunsLocked(true, now)
	}
	if !sess.isNamed(agentID) || slices.Contains(sess.st.Delivery.Agents, agentID) {
		return nil
	}
	standing := append([]string(nil), sess.st.Standing...)
	sess.injected(standing)
	sess.dispatch(state.DeliverySent{AgentID: agentID, Now: now})
	sess.log("ContextSaver delivery: first call → " + agentID)
	sess.deliveredToast(now)
	return standing
}

// deliveredToast: a burst of deliveries is said once; a workflow's agents start in a crowd.
func (sess *Session) deliveredToast(now int64) {
	if now-sess.st.Delivery.LastToastAt < state.DeliveryBurstMs {
		return
	}
	sess.toast("ContextSaver: your fixes reached a new subagent")
	sess.dispatch(state.DeliveryToasted{Now: now})
}
