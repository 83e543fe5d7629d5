package session

import (
	"encoding/json"
	"fmt"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
	"github.com/saverd/saverd/textview"
)

// defaultWidth is view.text's width when the caller names none; maxWidth bounds what a caller may ask,
// so a typo cannot make the daemon draw gigabytes of rule lines.
const (
	defaultWidth = 100
	maxWidth     = 1000
)

// The views marshal under the session's lock: a model shares nothing with the state once it is bytes.

// ViewBand (view.band) is the band's model as JSON at the host's clock (bandOf).
func (s *Table) ViewBand(p SessionParams) (json.RawMessage, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return nil, err
	}
	return sess.marshal(func() any { return bandOf(sess.st, p.At) })
}

// ViewPane (view.pane) is the pane's model as JSON, with the rules it offers.
func (s *Table) ViewPane(p SessionParams) (json.RawMessage, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return nil, err
	}
	return sess.marshal(func() any { return view.BuildPane(sess.st, sess.proposals()) })
}

// DebugState (debug.state) is the session's whole state as JSON, for the tests and a person debugging.
func (s *Table) DebugState(p SessionParams) (json.RawMessage, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return nil, err
	}
	return sess.marshal(func() any { return sess.st })
}

// marshal encodes a view's model under the session's lock.
func (sess *Session) marshal(model func() any) (json.RawMessage, error) {
	var out []byte
	var err error
	sess.event(func() { out, err = jstext.Marshal(model()) })
	if err != nil {
		return nil, fmt.Errorf("encode view: %w", err)
	}
	return out, nil
}

// ViewText (view.text) draws the band, the pane or the debug dump as plain text at a width.
func (s *Table) ViewText(p ViewTextParams) (TextResult, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return TextResult{}, err
	}
	width := drawWidth(p.Width)
	var text string
	switch p.View {
	case "band":
		sess.event(func() { text = textview.BandAs(bandOf(sess.st, p.At), width, sess.command()) })
	case "pane":
		sess.event(func() { text = textview.PaneAs(view.BuildPane(sess.st, sess.proposals()), width, sess.command()) })
	case "debug":
		sess.event(func() { text = view.DebugDump(sess.st, sess.st.LoadCheckSpoke) })
	default:
		return TextResult{}, invalid("params.view: want band, pane or debug, got %q", p.View)
	}
	return TextResult{Text: &text}, nil
}

// drawWidth is the width a band or a pane is drawn at for a caller that asked for width: defaultWidth
// when it named none, else within MinWidth (the narrowest the drawings are made for, band and pane
// alike: a narrow terminal gets that, not the width of none said) and maxWidth.
func drawWidth(width int) int {
	switch {
	case width == 0:
		return defaultWidth
	case width < textview.MinWidth:
		return textview.MinWidth
	case width > maxWidth:
		return maxWidth
	}
	return width
}

// bandOf is the band at the host's clock, or — with no `at` — at the newest clock the session holds, as
// ContextSaver's bandModel defaults: a view is no hook, and it reads the same on every call.
func bandOf(st *state.State, at *int64) view.BandModel {
	if at != nil {
		return view.BuildBandAt(st, *at)
	}
	return view.BuildBand(st)
}
