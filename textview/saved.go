package textview

import (
	"math"
	"strconv"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// What a fix saved is told one way wherever it is shown: the toast that says it settled, the band and
// the pane's Saved row read the same figures in the same words.

// PreciseDuration is a saved time as saverd tells it (the saved toast, the band, the pane's Saved row):
// ContextSaver's form from a second on, and its real value under one (0.4s, 40ms), never a "0s" that hides it.
func PreciseDuration(ms float64) string {
	switch {
	case ms >= 999.5:
		return jstext.Duration(ms)
	case ms >= 50:
		return strconv.FormatFloat(math.Round(ms/100)/10, 'f', -1, 64) + "s"
	}
	return strconv.FormatFloat(math.Max(1, math.Round(ms)), 'f', -1, 64) + "ms"
}

// ContextShare is characters of context as saverd tells a saving (the toasts, the band, the pane): a share
// of the window from 0.1 % on (1.2%), below it the tokens they are (15 tokens of), never a "0%" that hides
// them; "" for none.
func ContextShare(chars float64, window int64) string {
	if chars <= 0 {
		return ""
	}
	return contextOf(state.PctOf(chars, window), chars)
}

// contextOf is ContextShare of chars whose share of the window is pct (state.PctOf).
func contextOf(pct, chars float64) string {
	if pct >= 0.1 {
		return jstext.JSNumber(pct) + "%"
	}
	n := jstext.Kilo(math.Max(1, chars/state.CharsPerToken))
	if n == "1" {
		return "1 token of"
	}
	return n + " tokens of"
}

// savedParts is what the band's saved state and the pane's Saved row say, in the saved toast's words: the
// context the fixes kept out (pct of the window, or its tokens under 0.1 %) and the time.
func savedParts(pct, chars, ms float64) []string {
	context := ""
	switch {
	case pct >= 0.1:
		context = pctOf(pct)
	case chars > 0:
		context = "~" + contextOf(pct, chars) + " context" // the share under 0.1 % is its tokens
	}
	time := ""
	if ms > 0 {
		time = PreciseDuration(ms)
	}
	return parts(context, time)
}
