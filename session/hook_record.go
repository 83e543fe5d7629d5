package session

import (
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
	"github.com/saverd/saverd/textview"
)

// StatuslineInput is what the status line's input says of its session: its id, the model and the window
// it reports (hooks do not), and the width to draw at.
type StatuslineInput struct {
	SessionID string
	Model     string
	Window    int64 // 0: not said
	Width     int
}

// Statusline draws a bridged session's band as one line for the harness's status line, and takes the
// model and window size the status line reports. An unknown session draws nothing.
func (s *Table) Statusline(in StatuslineInput) TextResult {
	s.mu.Lock()
	sess := s.sessions[in.SessionID]
	s.mu.Unlock()
	text := ""
	if sess == nil || sess.bridge == nil {
		return TextResult{Text: &text}
	}
	width := drawWidth(in.Width)
	now := s.Now(nil)
	draw := func() {
		band := view.BuildBandAt(sess.st, now)
		// A harness has no pane to close: `/saver` typed there shows it each time, whatever the state says.
		band.PaneOpen = false
		text, _, _ = strings.Cut(textview.BandAs(band, width, sess.command()), "\n")
	}
	// The band counts a turn's last call, written after its Stop: read unless another read of the
	// session is under way (the line is drawn from what is known, and drawn again a second later).
	b := sess.bridge
	var r logRead
	if b.readMu.TryLock() {
		defer b.readMu.Unlock()
		r = s.lateRead(sess)
	}
	sess.event(func() {
		if in.Model != "" {
			b.model = in.Model
		}
		if in.Window > 0 && in.Window != b.window {
			b.window = in.Window
			sess.dispatch(state.UsageSample{Usage: state.Usage{Window: b.window}, Now: now})
		}
		sess.applyLate(r, now)
		draw()
	})
	return TextResult{Text: &text}
}

// recordSession appends the session's record, read from its transcript, to the sessions log, with what
// the forks saverd ran for it spent as its judge spend (the forks log names them) and what saverd did in it
// (saverOf, taken when the session ended). A session resumed and ended again is appended again: its last
// record covers all of it.
func (s *Table) recordSession(live harness.Live, transcript string, saver *agentlog.Saver) {
	if s.opt.SessionsLog == "" || transcript == "" {
		return
	}
	var forks map[string]agentlog.ForkRecord
	if s.opt.HistoryLogs.ForksLog != "" {
		var warn []string
		forks, warn = agentlog.ReadForks(s.opt.HistoryLogs.ForksLog)
		for _, w := range warn {
			s.log.Warn().Str("forks", s.opt.HistoryLogs.ForksLog).Msg(w)
		}
	}
	rec, _, err := live.Record(transcript, forks, agentlog.Options{Prices: priceTable(s)})
	if err == nil {
		rec.Saver = saver
		err = agentlog.AppendRecord(s.opt.SessionsLog, rec)
	}
	if err != nil {
		s.log.Warn().Err(err).Str("transcript", transcript).Msg("session record not written")
	}
}

// priceTable is the embedded prices with the person's overrides (<config dir>/prices.json), as
// `saverd sessions` prices them; a file that does not parse is logged and the embedded table used.
func priceTable(s *Table) *prices.Table {
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
