package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/store"
)

// writeFileMax is the largest file a rule is written into: the file is read whole to append to it or
// merge into it, and its bytes before the write are kept in the journal so `/saver undo` can put them
// back. A CLAUDE.md or settings.json past it is no file a rule belongs in.
const writeFileMax = 1 << 20

// writeArtifact is a pane's press of write: the rule written (writeRule), the reply toasted too, since the
// band and the pane have no reply to show it in.
func (sess *Session) writeArtifact(a rules.Artifact) string {
	text, _ := sess.writeRule(a)
	sess.toast(text)
	return text
}

// writeRule lands a rule in its file: an append, a whole-file write or a settings merge, confined to the
// session's directory and never twice (ui.action write and `/saver write <n>` both come here). The reply
// says where it went, or why it did not; undoable is true when the write is in the journal `/saver undo`
// takes it back from.
func (sess *Session) writeRule(a rules.Artifact) (text string, undoable bool) {
	cwd := sess.st.Cwd
	if !filepath.IsAbs(a.Path) || !within(cwd, a.Path) {
		return fmt.Sprintf("ContextSaver: refused to write %s: it is outside the session's directory %s", a.Path, cwd), false
	}
	if a.Already != "" && a.Mode != rules.ModeMergeSettings {
		// The file holds the rule already (this session, an earlier one, or by hand): nothing is appended.
		// A settings merge is idempotent on its own, so it goes ahead and only lays the file out again.
		sess.handledRule(a.PatternID, a.Kind)
		return "ContextSaver: already in " + a.Already + " — not written again", false
	}
	if root := sess.srv.opt.WriteRoot; root != "" {
		return sess.writeUnder(root, a), false
	}
	a = sess.freeName(a)
	resolved, err := confine(cwd, a.Path)
	if err != nil {
		return "ContextSaver: refused to write " + a.Path + ": " + err.Error(), false
	}
	shown := shownPath(cwd, a.Path, resolved)
	a.Path = resolved
	w, err := landArtifact(a)
	if err != nil {
		return err.Error(), false
	}
	sess.handledRule(a.PatternID, a.Kind)
	text = "Wrote " + shown
	if j := sess.srv.opt.Journal; j != nil {
		w.Shown, w.At = shown, sess.srv.Now(nil)
		if err := j.Record(cwd, w); err != nil {
			text += " — " + sess.command() + " undo cannot take it back: " + err.Error()
		} else {
			undoable = true
		}
	}
	return text, undoable
}

// handledRule marks a rule handled in this session (written, skipped, tried or found there already:
// state.ArtifactDone), so the pane does not offer it again; the project's journal keeps the mark, so a
// daemon that meets the session after a restart does not offer it either (rejoin.go).
func (sess *Session) handledRule(id string, kind state.ArtifactKind) {
	sess.dispatch(state.ArtifactDone{PatternID: id, Kind: kind, Written: true})
	if j := sess.srv.opt.Journal; j != nil {
		if err := j.Handle(sess.st.Cwd, store.Handled{Session: sess.id, PatternID: id, Kind: string(kind)}); err != nil {
			sess.srv.log.Warn().Err(err).Str("session", sess.id).Msg("the rule handled is not kept for a restart")
		}
	}
}

// landArtifact writes a rule into its file (already confined) and says what it changed: the file's
// bytes before and after, and the directories it had to create. The file is read only when it is a
// regular file no larger than writeFileMax (a FIFO where CLAUDE.md should be is refused at once), and
// written durably (atomicfile.Write), keeping its mode; a new file is 0644.
func landArtifact(a rules.Artifact) (store.Write, error) {
	w := store.Write{Path: a.Path, PatternID: a.PatternID, Kind: string(a.Kind)}
	b, err := safefile.Read(a.Path, writeFileMax)
	switch {
	case err == nil:
		w.Before = new(string(b))
	case errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, safefile.ErrTooLarge):
		return w, fmt.Errorf("%s is larger than %d MiB: not changed; add the rule by hand", a.Path, writeFileMax>>20)
	case errors.Is(err, safefile.ErrNotRegular):
		return w, fmt.Errorf("%w: not changed", err)
	default:
		return w, fmt.Errorf("read %s: %w", a.Path, err)
	}
	w.After = a.Content
	switch a.Mode {
	case rules.ModeAppend:
		w.After = rules.AppendedTo(w.Before, a.Content)
	case rules.ModeMergeSettings:
		merged, err := rules.MergeSettings(w.Before, a.Content)
		if err != nil {
			return w, err
		}
		w.After = merged
	}
	dir := filepath.Dir(a.Path)
	w.Created = missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return w, fmt.Errorf("create %s: %w", dir, err)
	}
	return w, atomicfile.Write(a.Path, []byte(w.After), atomicfile.Mode(a.Path, 0o644))
}

// missingDirs is dir and each of its parents that does not exist yet, deepest first.
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}
