package textview

import (
	"math"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/saverline"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// MinWidth is the narrowest pane drawn; a smaller width is drawn at MinWidth.
const MinWidth = 40

const (
	gaugeCells = 10          // the window gauge's cells
	sparks     = "▁▂▃▄▅▆▇█"  // the trend's eight levels, lowest first
	indent     = "         " // under a header row's value
)

// Pane draws the docked panel: the header (window, trend, where time and context went, the judge,
// what was saved), then WASTERS, DECIDED and RULES TO WRITE. Every line is at most width columns
// (at least MinWidth); long text wraps under its label and single-line items are cut with ….
// Evidence is drawn for every card: a text view has no (i) to press, so Expanded changes nothing.
// The commands it names are spelled /saver, as a host's pane and Claude Code take them (PaneAs).
func Pane(m view.PaneModel, width int) string { return PaneAs(m, width, saverline.Slash) }

// PaneAs is Pane with saverd's commands spelled as the person types them where the pane is read (a
// harness's Command: $saver in Codex).
func PaneAs(m view.PaneModel, width int, command string) string {
	w := max(width, MinWidth)
	var lines []string
	lines = append(lines, header(m.Header, w)...)
	lines = append(lines, "")
	lines = append(lines, wasters(m, w, command)...)
	if len(m.Decided) > 0 {
		lines = append(lines, "")
		lines = append(lines, decided(m.Decided, w)...)
	}
	if len(m.Artifacts) > 0 {
		lines = append(lines, "")
		lines = append(lines, rulesToWrite(m.Artifacts, w, command)...)
	}
	// The safety net: whatever a section drew, no line leaves the pane.
	for i, l := range lines {
		lines[i] = cut(l, w)
	}
	return strings.Join(lines, "\n") + "\n"
}

// row is one header row: its label, then its parts wrapped under the value column.
func row(name string, ps []string, w int) []string { return wrapParts(ps, w, pad(name), indent) }

func pad(name string) string { return name + strings.Repeat(" ", max(0, len(indent)-len(name))) }

// header is the hero block.
func header(h view.Header, w int) []string {
	lines := append([]string{bandName}, row("Window", windowOf(h), w)...)
	if len(h.Trend) > 0 {
		lines = append(lines, row("Trend", []string{trendOf(h.Trend, w-len(indent))}, w)...)
	}
	if h.Time != nil {
		lines = append(lines, row("Time", sinksOf(*h.Time, duration(float64(h.Time.Total))), w)...)
	}
	if h.Context != nil {
		total := "~" + kilo(float64(h.Context.Total)/4) + " tokens"
		lines = append(lines, row("Context", sinksOf(*h.Context, total), w)...)
	}
	lines = append(lines, row("Judge", judgeOf(h), w)...)
	if h.JudgeTime != nil && clean(*h.JudgeTime) != "" {
		lines = append(lines, wrap(*h.JudgeTime, w, indent+"time: ", indent+"      ")...)
	}
	if h.JudgeContext != nil && clean(*h.JudgeContext) != "" {
		lines = append(lines, wrap(*h.JudgeContext, w, indent+"context: ", indent+"         ")...)
	}
	if saved := savedParts(h.SavedPct, h.SavedChars, h.SavedMs); len(saved) > 0 {
		lines = append(lines, row("Saved", saved, w)...)
	}
	if m := h.Money; m != nil {
		lines = append(lines, row("Net", netOf(m), w)...)
	}
	return lines
}

// netOf is the savings against the judges' spend in one unit, saying so plainly when the judges cost
// more, and naming the unit when it is tokens for want of a price.
func netOf(m *view.MoneyView) []string {
	out := []string{clean(m.Text)}
	if m.Losing {
		out = append(out, view.LosingText(m))
	}
	if !m.Priced && clean(m.Basis) != "" {
		out = append(out, clean(m.Basis))
	}
	if p := clean(m.Projection); p != "" {
		out = append(out, "projected: "+p) // never in the figures before it
	}
	return out
}

// windowOf is how full the window is, with its gauge, and how far compaction is.
func windowOf(h view.Header) []string {
	gauge := ""
	if h.Percent != nil {
		p := *h.Percent
		if math.IsNaN(p) {
			p = 0
		}
		filled := int(math.Max(0, math.Min(gaugeCells, math.Floor(p/100*gaugeCells+0.5))))
		gauge = num(p) + "% " + strings.Repeat("█", filled) + strings.Repeat("░", gaugeCells-filled)
	}
	if ps := parts(append([]string{gauge}, compaction(h)...)...); len(ps) > 0 {
		return ps
	}
	return []string{"not measured yet"}
}

// compaction is the tokens and turns left before the host compacts the window, each figure said with what
// it counts down to.
func compaction(h view.Header) []string {
	tok, turns := h.TokensToCompaction, h.TurnsToCompaction
	if (tok != nil && *tok <= 0) || (turns != nil && *turns <= 0) {
		return []string{"compaction due"}
	}
	switch {
	case tok != nil && turns != nil:
		// One part: split in two, "893k tokens" read alone (or wrapped away from its end) said nothing of
		// what the figure is.
		return []string{kilo(float64(*tok)) + " tokens (~" + count(int(*turns), "turn") + ") to compaction"}
	case tok != nil:
		return []string{kilo(float64(*tok)) + " tokens to compaction"}
	case turns != nil:
		return []string{"~" + count(int(*turns), "turn") + " to compaction"}
	}
	return nil
}

// trendOf draws the last percents as a sparkline scaled from their lowest to their highest, so the
// shape shows (a flat run draws mid-height), then first → last; it keeps the newest samples that fit.
func trendOf(trend []float64, cols int) string {
	first, last := trend[0], trend[len(trend)-1]
	span := num(last) + "%"
	if len(trend) > 1 {
		span = num(first) + "% → " + span
	}
	keep := max(1, min(len(trend), cols-width(span)-1))
	trend = trend[len(trend)-keep:]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range trend {
		if finite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	levels := []rune(sparks)
	top := len(levels) - 1
	var b strings.Builder
	for _, v := range trend {
		level := top / 2
		if finite(v) && hi-lo > 0 && finite(hi-lo) {
			level = int(math.Floor((v-lo)/(hi-lo)*float64(top) + 0.5))
		}
		b.WriteRune(levels[max(0, min(top, level))])
	}
	return b.String() + " " + span
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// sinksOf is a sink row: the total, then each named sink with its share of it.
func sinksOf(s state.Sinks, total string) []string {
	ps := []string{total}
	for _, k := range s.Sinks {
		ps = append(ps, clean(k.Label)+" "+shareOf(k.Amount, s.Total))
	}
	return ps
}

// shareOf is amount as a whole percentage of total; "<1%" for a sliver, so no named sink reads 0%.
func shareOf(amount, total int64) string {
	if total <= 0 || amount <= 0 {
		return "0%"
	}
	pct := math.Floor(float64(amount)/float64(total)*100 + 0.5)
	if pct < 1 {
		return "<1%"
	}
	return strconv.FormatFloat(pct, 'f', -1, 64) + "%"
}

// judgeOf is the judge's runs and spend, and Checking… while a run is in flight.
func judgeOf(h view.Header) []string {
	checking := ""
	if h.JudgeRunning {
		checking = "Checking…"
	}
	if h.JudgeRuns <= 0 {
		return parts(orElse(checking, "not run yet"), budgetText(h.Budget))
	}
	return parts(count(h.JudgeRuns, "run"), kilo(float64(h.JudgeTokens))+" tokens", checking, budgetText(h.Budget))
}

// budgetText is what the judges may still spend on automatic runs; nothing before the first turn is
// measured, since a share of nothing is no cap yet. The share is the cap the host or the project set,
// named as one: what the judges did spend is /saver debug's, and a share beside "spent" read as that.
func budgetText(b state.Budget) string {
	share := strconv.FormatFloat(math.Round(b.Share*1000)/10, 'f', -1, 64) + "%"
	switch {
	case b.Over && b.Share == 0:
		return "automatic checks off (judgeBudget 0) · checks only when asked"
	case b.Over:
		return "budget spent (cap " + share + " of the session) · checks only when asked"
	case b.Allowed > 0:
		return "budget " + kilo(float64(b.Left)) + " tokens left of " + share
	}
	return ""
}

func orElse(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
