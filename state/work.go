package state

import "slices"

// What a row did, as the loops, the digest and the AGENTS block count it.

var (
	editTools    = []string{"Edit", "Write", "NotebookEdit", "MultiEdit", "apply_patch"} // apply_patch: Codex's
	checkClasses = []CommandClass{ClassTest, ClassLint, ClassTypecheck, ClassFormat, ClassBuild}
	readTools    = []string{"Read", "Grep", "Glob"}
)

// IsEdit: an edit whatever its paths say, or any call that changed a path.
func IsEdit(r *Row) bool { return slices.Contains(editTools, r.Tool) || len(r.Paths) > 0 }

// IsCheck: a test, lint, typecheck, format or build run.
func IsCheck(r *Row) bool { return slices.Contains(checkClasses, r.Cls) }

// IsRead: a read or a search, by tool or by command class.
func IsRead(r *Row) bool {
	return r.Cls == ClassRead || r.Cls == ClassSearch || slices.Contains(readTools, r.Tool)
}

// CountRow counts one more of the loop's own rows on it: a call, and an edit, a check or a read when the
// row was one. Counted as it lands, so the count outlives the row.
func CountRow(l *Loop, r *Row) {
	l.Calls++
	if IsEdit(r) {
		l.Edits++
	}
	if IsCheck(r) {
		l.Checks++
	}
	if IsRead(r) {
		l.Reads++
	}
}

// isActive: a run is going while one of its loops is, or while it is young enough that its first loop
// may not have reported yet.
func isActive(s *State, run *Run, now int64) bool {
	any := false
	for i := range s.Loops {
		l := &s.Loops[i]
		if l.Run == nil || *l.Run != run.ID {
			continue
		}
		any = true
		if l.Ended == nil {
			return true
		}
	}
	if !any {
		return now-run.At < RunFreshMs
	}
	return false
}

// ActiveRuns is the runs still going: one with an unended loop, or one launched less than RunFreshMs ago
// with no loop yet.
func ActiveRuns(s *State, now int64) []Run {
	var out []Run
	for i := range s.Runs {
		if isActive(s, &s.Runs[i], now) {
			out = append(out, s.Runs[i])
		}
	}
	return out
}

// JournalPath is where a run's journal is written; "" for a run that reported no transcript dir.
func JournalPath(run *Run) string {
	if run.Dir == nil {
		return ""
	}
	return *run.Dir + "/journal.jsonl"
}
