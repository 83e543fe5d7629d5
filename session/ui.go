package session

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/textview"
)

// The pane's actions, as ContextSaver's Actions table names them.
var uiActions = []string{"keep", "steer", "steerDraft", "steerSubmit", "kill", "info", "togglePane", "check", "write", "tryOnce", "skip"}

// UIAction (ui.action) is a press in the pane or the band.
func (s *Table) UIAction(p UIActionParams) (TextResult, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return TextResult{}, err
	}
	if !slices.Contains(uiActions, p.Action) {
		return TextResult{}, invalid("params.action: unknown action %q; want one of %s", p.Action, strings.Join(uiActions, ", "))
	}
	switch p.Action {
	case "keep", "steer", "steerSubmit", "kill", "info":
		if p.PatternID == "" {
			return TextResult{}, invalid("params.patternId: required for %s", p.Action)
		}
	}
	if (p.Action == "steerDraft" || p.Action == "steerSubmit") && p.Text == nil {
		return TextResult{}, invalid("params.text: required for %s", p.Action)
	}
	now := s.Now(p.At)
	var res TextResult
	var failure error
	sess.event(func() { res.Text, failure = sess.uiAction(p, now) })
	if failure != nil {
		return TextResult{}, failure
	}
	return res, nil
}

func (sess *Session) uiAction(p UIActionParams, now int64) (*string, error) {
	switch p.Action {
	case "keep":
		sess.decide(p.PatternID, state.Ignore, nil)
	case "kill":
		sess.decide(p.PatternID, state.Fix, nil)
	case "steer":
		sess.dispatch(state.SteerBegin{PatternID: p.PatternID})
	case "steerDraft":
		sess.dispatch(state.SteerDraft{Text: *p.Text})
	case "steerSubmit":
		sess.steerSubmit(p.PatternID, *p.Text)
	case "info":
		sess.dispatch(state.Expand{PatternID: new(p.PatternID)})
	case "togglePane":
		sess.togglePane()
	case "check":
		// The band and the pane have no reply to write in, so the press is answered with a toast too.
		text := sess.checkNow(now)
		sess.toast(text)
		return &text, nil
	default:
		a, err := sess.artifactFor(p)
		if err != nil {
			return nil, err
		}
		return sess.artifactAction(p.Action, a)
	}
	return nil, nil
}

func (sess *Session) artifactAction(action string, a rules.Artifact) (*string, error) {
	switch action {
	case "write":
		text := sess.writeArtifact(a)
		return &text, nil
	case "tryOnce":
		text := sess.tryArtifact(a)
		return &text, nil
	}
	// A skipped rule is handled: Written is the set the pane never offers again.
	sess.handledRule(a.PatternID, a.Kind)
	return nil, nil
}

// artifactFor is the rule an artifact action names: the one the pane offers for that pattern (and kind),
// so the host cannot make the daemon write a path or a text the rules did not render.
func (sess *Session) artifactFor(p UIActionParams) (rules.Artifact, error) {
	id := p.PatternID
	var kind state.ArtifactKind
	if p.Artifact != nil {
		id, kind = p.Artifact.PatternID, p.Artifact.Kind
	}
	switch {
	case id == "" && p.Artifact != nil:
		return rules.Artifact{}, invalid("params.artifact.patternId: required for %s: the rule is the one the pane offers for that pattern", p.Action)
	case id == "":
		return rules.Artifact{}, invalid("params.artifact: required for %s (or params.patternId)", p.Action)
	}
	for _, a := range sess.proposals() {
		if a.PatternID == id && (kind == "" || a.Kind == kind) {
			return a, nil
		}
	}
	return rules.Artifact{}, requestFailed("no rule to write for %q: the pane offers none (decided, written or skipped already?)", id)
}

// ruleFileMax is the most of a rule's file read to see whether the rule is there already.
const ruleFileMax = 1 << 20

// proposals is the rules the pane offers, each marked with the file that already holds it (Already), so
// a rule written in an earlier session or by hand is never offered or appended again. A file that cannot
// be read marks nothing: writing it will say why.
func (sess *Session) proposals() []rules.Artifact {
	arts := rules.Propose(sess.st)
	if sess.bridge != nil {
		arts = sess.bridge.live.Rules(sess.st, arts)
	}
	read := map[string]*rules.RuleFile{} // several rules land in one CLAUDE.md: it is read once
	for i := range arts {
		a := &arts[i]
		f, seen := read[a.Path]
		if !seen {
			f = readRuleFile(a.Path)
			read[a.Path] = f
		}
		if f == nil || !f.Holds(*a) {
			continue
		}
		a.Already = a.Path
		if rel, err := filepath.Rel(sess.st.Cwd, a.Path); err == nil && within(sess.st.Cwd, a.Path) {
			a.Already = rel
		}
	}
	return arts
}

// readRuleFile is the first ruleFileMax bytes of a rule's file, or nil when it cannot be read. The file is
// the project's, read under the session's lock: only a regular file is read (a FIFO's open would wait for
// a writer, and the session with it, for good), within fileReadTimeout.
func readRuleFile(path string) *rules.RuleFile {
	b, err := safefile.HeadWithin(path, ruleFileMax, fileReadTimeout)
	if err != nil {
		return nil
	}
	return rules.NewRuleFile(string(b))
}

// within reports whether path stays inside dir once both are cleaned.
func within(dir, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// tryArtifact makes a rule a standing instruction for this session only.
func (sess *Session) tryArtifact(a rules.Artifact) string {
	body := jstext.CollapseWs(bodyOf(a.Content))
	if body == "" {
		body = a.Title
	}
	sess.dispatch(state.StandingAdd{Text: state.InstructionOf(body)})
	sess.handledRule(a.PatternID, a.Kind)
	text := "Trying \"" + a.Title + "\" for this session"
	sess.toast(text)
	return text
}

// bodyOf is the artifact's own words without the file's furniture: a bullet, or the prose under a frontmatter.
func bodyOf(content string) string {
	if strings.Contains(content, state.ClaudeMDHeading) {
		return strings.TrimPrefix(rules.BulletOnly(content), "- ")
	}
	parts := strings.Split(content, "---\n")
	return parts[len(parts)-1]
}

// openPane asks the host to show the pane; an open the person asked for asks for their keyboard too.
func (sess *Session) openPane(auto bool) {
	open := PaneOpen{SessionID: sess.id, ID: state.PaneID, Title: state.PaneTitle, Rows: state.PaneInlineRows}
	if !auto {
		open.Focus = new(true)
	}
	sess.send(NotifyOpen, open)
	sess.dispatch(state.SetPane{Open: true, Auto: auto})
}

// togglePane: the close is recorded at once, as ContextSaver's ui.close hook recorded it.
func (sess *Session) togglePane() {
	if sess.st.PaneOpen {
		sess.send(NotifyClose, PaneClose{SessionID: sess.id, ID: state.PaneID})
		sess.dispatch(state.SetPane{Open: false})
		return
	}
	sess.openPane(false)
}

// autoOpen: only after fresh cards arrived, once a session, and only where the surface would draw it.
func (sess *Session) autoOpen(queued []string) {
	st := sess.st
	cols := 0
	if st.Columns != nil {
		cols = *st.Columns
	}
	if len(queued) == 0 || st.PaneOpen || st.AutoOpened || cols < state.AutoOpenMinColumns {
		return
	}
	sess.openPane(true)
}

// openForCheck: a check the person asked for opens the pane at any width, every time.
func (sess *Session) openForCheck(queued []string) {
	if len(queued) == 0 || sess.st.PaneOpen {
		return
	}
	sess.openPane(false)
}

// UIClosed (ui.closed): the person (or the host) closed the pane.
func (s *Table) UIClosed(p SessionParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	sess.event(func() { sess.dispatch(state.SetPane{Open: false}) })
	return nil
}

// UIColumns (ui.columns): the band's width, for the auto-open decision; a render-path update, so no redraw.
func (s *Table) UIColumns(p ColumnsParams) error {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	if p.Columns < 0 {
		return invalid("params.columns: want ≥ 0, got %d", p.Columns)
	}
	sess.event(func() {
		if sess.st.Columns == nil || *sess.st.Columns != p.Columns {
			sess.observe(state.SetColumns{Columns: p.Columns})
		}
	})
	return nil
}

// relapseToast says which settled instruction came back and what credit it took with it, so the saved
// figure going down is never a mystery.
func (sess *Session) relapseToast(back []state.Requeue) {
	for _, r := range back {
		p := sess.st.PatternByID(r.ID)
		if p == nil {
			continue
		}
		if p.Credit != nil { // the judge reported a behaviour again: what it accrued stands, it accrues no more
			sess.toast("ContextSaver: back after it was fixed — \"" + p.Kind + "\"; it saves nothing more until it is fixed again")
			continue
		}
		sess.toast(relapseText(p.Kind, r.Credit, sess.st.Usage.Window))
	}
}

// relapseText: `ContextSaver: back after it was fixed — "<kind>"; its credit is withdrawn (−4.5s · −~0.5% context)`.
func relapseText(kind string, credit state.Saved, window int64) string {
	text := "ContextSaver: back after it was fixed — \"" + kind + "\""
	var took []string
	if credit.Ms > 0 {
		took = append(took, "−"+textview.PreciseDuration(credit.Ms))
	}
	if share := textview.ContextShare(credit.Chars, window); share != "" {
		took = append(took, "−~"+share+" context")
	}
	if len(took) == 0 {
		return text + "; it had saved nothing yet"
	}
	return text + "; its credit is withdrawn (" + strings.Join(took, " · ") + ")"
}
