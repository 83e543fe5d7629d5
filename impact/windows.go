package impact

import (
	"sort"
	"time"
)

// windows is a sorted set of disjoint time intervals (inclusive): the union
// of a repo's session windows. The scan drops commits outside it at once,
// so memory follows the sessions, not the history.
type windows []interval

type interval struct{ lo, hi time.Time }

func windowsOf(members []member) windows {
	w := make(windows, 0, len(members))
	for _, m := range members {
		lo, hi := m.s.window()
		w = append(w, interval{lo, hi})
	}
	sort.Slice(w, func(i, j int) bool { return w[i].lo.Before(w[j].lo) })
	merged := w[:0]
	for _, iv := range w {
		if n := len(merged); n > 0 && !iv.lo.After(merged[n-1].hi) {
			if iv.hi.After(merged[n-1].hi) {
				merged[n-1].hi = iv.hi
			}
			continue
		}
		merged = append(merged, iv)
	}
	return merged
}

func (w windows) holds(ts time.Time) bool {
	i := sort.Search(len(w), func(i int) bool { return !w[i].hi.Before(ts) })
	return i < len(w) && !ts.Before(w[i].lo)
}

// earliest is the first window start, the scan's author-date lower bound
// (earliest session start − PRE_MIN).
func (w windows) earliest() time.Time {
	if len(w) == 0 {
		return time.Time{}
	}
	return w[0].lo
}
