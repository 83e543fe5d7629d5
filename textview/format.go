package textview

import (
	"math"
	"strconv"
	"strings"
)

// sep joins the parts of one line.
const sep = " · "

// num writes a figure the way ContextSaver's template strings did: at most one decimal, no trailing zero.
// A value that is not a number reads as 0, so a broken model never prints NaN.
func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	r := math.Floor(f*10+0.5) / 10
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// count is n and its noun, plural unless n is 1: "1 call", "3 calls".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// join joins the non-empty parts with sep.
func join(ps ...string) string { return strings.Join(parts(ps...), sep) }

// parts is ps without its empty strings.
func parts(ps ...string) []string {
	kept := make([]string, 0, len(ps))
	for _, p := range ps {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return kept
}

// pctOf is "~X% of context", or "" for nothing: a zero figure is dropped whole, as ContextSaver's stats do.
func pctOf(pct float64) string {
	if !(pct > 0) {
		return ""
	}
	return "~" + num(pct) + "% of context"
}

// msOf is a duration, or "" for none.
func msOf(ms float64) string { return durationFrom(ms, 0) }

// costMsOf is the band's time the waiting wasters cost, or "" under a second: ContextSaver's whole seconds
// would print a cost that small as "0s" or "1s", a figure that reads as noise on a one-line teaser.
func costMsOf(ms float64) string { return durationFrom(ms, 1000) }

// durationFrom is a duration of more than nothing and at least least ms, else "".
func durationFrom(ms, least float64) string {
	if !(ms > 0 && ms >= least) {
		return ""
	}
	return duration(ms)
}
