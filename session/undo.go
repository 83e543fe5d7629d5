package session

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/store"
)

// `/saver write <n>` and `/saver undo`: the pane's rules written, and taken back, from the prompt box.

const (
	noRuleText    = "ContextSaver: no rule to write"
	nothingToUndo = "ContextSaver: nothing to undo"
)

// writeUsage and undoHint name the commands as the session's person types them (Session.command).
func writeUsage(command string) string {
	return "Usage: " + command + " write <n> (the number RULES TO WRITE draws beside the rule)"
}

func undoHint(command string) string { return " · " + command + " undo takes it back" }

// writeByNumber is `/saver write <n>`: the rule the pane numbers n, written exactly as ui.action write
// writes it (writeRule: confined to the project, never twice), its reply the answer and no toast.
func (sess *Session) writeByNumber(token string) string {
	pending := rules.Pending(sess.proposals())
	if len(pending) == 0 {
		return noRuleText
	}
	n, ok := numberOf(token)
	if !ok {
		return writeUsage(sess.command())
	}
	if n < 1 || n > float64(len(pending)) {
		return "ContextSaver: no rule " + numberText(n) + " (1–" + strconv.Itoa(len(pending)) + ")"
	}
	text, undoable := sess.writeRule(pending[int(n)-1])
	if undoable {
		text += undoHint(sess.command())
	}
	return text
}

// undoLast is `/saver undo`: the project's last rule write taken back byte for byte from the journal —
// unless the file changed since it was written (the person edited it, or removed it), which is then left
// alone and named. Either way the write leaves the journal, so the next undo goes one write further back.
func (sess *Session) undoLast() string {
	j := sess.srv.opt.Journal
	if j == nil {
		return nothingToUndo + " (this daemon keeps no journal of its writes)"
	}
	var reply string
	ok, err := j.Undo(sess.st.Cwd, func(w store.Write) (bool, error) {
		var done bool
		reply, done = sess.takeBack(w)
		return done, nil
	})
	switch {
	case err != nil && reply == "":
		reply = "ContextSaver: could not undo: " + err.Error()
	case err != nil:
		reply += " (the journal could not be updated: " + err.Error() + ")"
	case !ok:
		reply = nothingToUndo
	}
	return reply
}

// takeBack restores the file w wrote to its bytes before, or says why not; done is false only when the
// file could not be restored for now (an I/O error), so the write stays in the journal to try again.
func (sess *Session) takeBack(w store.Write) (reply string, done bool) {
	if resolved, err := confine(sess.st.Cwd, w.Path); err != nil || resolved != w.Path {
		why := "it no longer resolves to where it was written"
		if err != nil {
			why = err.Error()
		}
		return "ContextSaver: left " + w.Shown + " alone: " + why, true
	}
	current, err := safefile.Read(w.Path, writeFileMax)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "ContextSaver: left " + w.Shown + " alone: it was removed since saverd wrote it; nothing taken back", true
	case err != nil && !errors.Is(err, safefile.ErrTooLarge):
		return "ContextSaver: could not read " + w.Shown + " to take the rule back: " + err.Error(), false
	case err != nil || string(current) != w.After:
		return "ContextSaver: left " + w.Shown + " alone: it changed since saverd wrote it; nothing taken back", true
	}
	if w.Before == nil {
		if err := os.Remove(w.Path); err != nil {
			return "ContextSaver: could not remove " + w.Shown + ": " + err.Error(), false
		}
		for _, dir := range w.Created {
			if os.Remove(dir) != nil { // not empty: something else was put in it since
				break
			}
		}
		return "ContextSaver: took back " + w.Shown + " — removed, as before it was written" + sess.notAgain(w), true
	}
	if err := atomicfile.Write(w.Path, []byte(*w.Before), atomicfile.Mode(w.Path, 0o644)); err != nil {
		return "ContextSaver: could not take back " + w.Shown + ": " + err.Error(), false
	}
	return "ContextSaver: took back the rule written to " + w.Shown + " — the file is as it was before" + sess.notAgain(w), true
}

// notAgain says so when the rule taken back was written in this session, which then does not offer it
// again (state.ArtifactDone): the pane would otherwise seem to have lost it.
func (sess *Session) notAgain(w store.Write) string {
	if slices.Contains(sess.st.Written, w.PatternID+":"+w.Kind) {
		return " (this session does not offer it again)"
	}
	return ""
}
