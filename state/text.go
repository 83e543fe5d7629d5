package state

import (
	"sort"

	"github.com/saverd/saverd/internal/jstext"
)

// Small helpers the core's arithmetic shares. How text is measured, cut and printed is in
// internal/jstext.

// Median of xs; 0 when there are none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 != 0 {
		return sorted[mid]
	}
	return (sorted[mid-1] + sorted[mid]) / 2
}

// PctOf is chars/4 as a percentage of window, one decimal; 0 for an unknown window.
func PctOf(chars float64, window int64) float64 {
	if window <= 0 {
		return 0
	}
	return jstext.Round(chars/4/float64(window)*1000) / 10
}

// InstructionOf wraps a user instruction in the standard ContextSaver prefix.
func InstructionOf(text string) string {
	return "Instruction from the user (via ContextSaver): " + text
}

// FixPrompt is what Fix sends for a habit: stop the behaviour, do the alternative.
func FixPrompt(p *StoredPattern) string {
	return "Stop this behaviour for the rest of the session: " + p.Kind + ". From now on: " + p.Alternative
}

// Unique keeps the first of each string, in order.
func Unique(xs []string) []string {
	out := make([]string, 0, len(xs))
	seen := make(map[string]bool, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Str is *p, or "" for nil.
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
