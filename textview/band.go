package textview

import (
	"math"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// bandName opens the band, so a status line says whose figures these are.
const bandName = "ContextSaver"

// Band draws the one teaser line shown above the prompt, at most width columns: the session's state
// (the first that applies: died, checking, found, saved, watching), the running workflow when there is
// one, the net when there is one, and how to open or close the pane. When it does not fit, the net is
// told shorter first (bandMoney), then the pane hint goes, then the name, then the net, then whole figures
// from the end (a trailing … says some were left out); a figure is never cut in half unless the state's own
// words do not fit.
//
// The command it names is spelled /saver, as a host's pane and Claude Code take it (BandAs).
func Band(m view.BandModel, width int) string { return BandAs(m, width, saverline.Slash) }

// BandAs is Band with saverd's command spelled as the person types it where the band is read (a
// harness's Command).
func BandAs(m view.BandModel, width int, command string) string {
	parts := append(bandState(m), bandRunning(m.Running)...)
	hint := command + " to open"
	if m.PaneOpen {
		hint = command + " to close"
	}
	named := append([]string{bandName}, parts...)
	for _, line := range bandLines(named, bandMoney(m), hint) {
		if fits(line, width) {
			return line
		}
	}
	return fitParts(parts, width)
}

// bandLines are the band's candidate lines, longest first. With a net: each telling of it with the hint,
// each without, then the state and the net alone (the net outlasts the name, so a band that holds it
// says a session is losing money). Without one: the name and the state with the hint, then without.
func bandLines(named, money []string, hint string) []string {
	if len(money) == 0 {
		return []string{join(append(named, hint)...), join(named...)}
	}
	var lines []string
	for _, withHint := range []bool{true, false} {
		for _, net := range money {
			line := append(append([]string(nil), named...), net)
			if withHint {
				line = append(line, hint)
			}
			lines = append(lines, join(line...))
		}
	}
	return append(lines, join(append(append([]string(nil), named[1:]...), money[len(money)-1])...))
}

// fitParts joins as many leading parts as fit in w with " …" after them, or cuts the first.
func fitParts(parts []string, w int) string {
	if line := join(parts...); fits(line, w) {
		return line
	}
	for k := len(parts) - 1; k > 0; k-- {
		line := join(parts[:k]...)
		if !strings.HasSuffix(line, ellipsis) {
			line += " " + ellipsis // says figures were left out, unless the kept part already trails off
		}
		if fits(line, w) {
			return line
		}
	}
	return cut(join(parts...), w)
}

func fits(s string, w int) bool { return width(s) <= w }

// bandState is the state's own words and figures, one part each.
func bandState(m view.BandModel) []string {
	switch m.State {
	case view.BandDied:
		if m.Died != nil && *m.Died == state.EndRefusal {
			return []string{"the last turn was refused"}
		}
		if m.Died != nil && *m.Died == state.EndError {
			return []string{"the last turn died with an error"}
		}
		return []string{"the last turn died"}
	case view.BandChecking:
		return []string{"Checking…", count(m.Calls, "call") + " watched"}
	case view.BandFound:
		return parts(count(m.Fresh, "waster")+" waiting", pctOf(m.CostPct), costMsOf(m.CostMs))
	case view.BandSaved:
		return append([]string{"saved"}, savedParts(m.SavedPct, m.SavedChars, m.SavedMs)...)
	}
	return []string{"watching " + count(m.Calls, "call")}
}

// bandMoney is the net as the band may tell it, longest first: the money line with, for a net below zero,
// who cost more than it saved; without that; without the instructions' share; the net alone. The net
// itself is the last figure of the money a narrow band gives up. Nil when the state shows no money.
func bandMoney(m view.BandModel) []string {
	if m.Money == nil || !(m.State == view.BandSaved || m.State == view.BandFound || m.State == view.BandWatching) {
		return nil
	}
	text, p := clean(m.Money.Text), m.Money.Parts
	var tellings []string
	if m.Money.Losing {
		tellings = append(tellings, text+" ("+view.LosingText(m.Money)+")")
	}
	tellings = append(tellings, text)
	if p.Instructions != "" {
		tellings = append(tellings, clean(join(p.Saved, p.Judge, p.Net)))
	}
	if p.Net != "" && p.Net != text {
		tellings = append(tellings, clean(p.Net))
	}
	return tellings
}

// bandRunning names the newest active workflow run: its loops, their calls, the running stage.
func bandRunning(r *view.BandRunning) []string {
	if r == nil {
		return nil
	}
	label := ""
	if r.Label != nil {
		label = clean(*r.Label)
	}
	return parts(orElse(clean(r.Name), "workflow"), count(r.Loops, "loop"), count(r.Calls, "call"), label)
}

// duration is state.Duration made safe for any float a model may carry.
func duration(ms float64) string {
	if math.IsNaN(ms) {
		ms = 0
	}
	return jstext.Duration(math.Min(ms, 1e15))
}

// kilo is state.Kilo made safe for any float a model may carry.
func kilo(n float64) string {
	if math.IsNaN(n) {
		n = 0
	}
	return jstext.Kilo(math.Min(n, 1e18))
}
