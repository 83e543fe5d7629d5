package judge

import (
	"slices"
	"sort"
	"strings"

	"github.com/saverd/saverd/state"
)

// ASKS, CADENCE, ARTIFACTS and INTERVENTIONS.

// ContextSaver's regular expressions, matched by hand: the digest runs them over every row and loop.

// readPath is the path a Read key names, without its `:<offset>-<limit>` slice (/:\d*-\d*$/).
func readPath(key string) string {
	at := strings.LastIndexByte(key, ':')
	if at < 0 {
		return key
	}
	dash := false
	for i := at + 1; i < len(key); i++ {
		switch c := key[i]; {
		case c == '-' && !dash:
			dash = true
		case c < '0' || c > '9':
			return key
		}
	}
	if !dash {
		return key
	}
	return key[:at]
}

// isMemoryFile: a memory file or a CLAUDE.md / MEMORY.md, by path (/(\/memory\/[^/]+\.md|\/(CLAUDE|MEMORY)\.md)$/).
func isMemoryFile(p string) bool {
	if strings.HasSuffix(p, "/CLAUDE.md") || strings.HasSuffix(p, "/MEMORY.md") {
		return true
	}
	slash := strings.LastIndexByte(p, '/')
	base := p[slash+1:]
	return slash >= 0 && len(base) > len(".md") && strings.HasSuffix(base, ".md") && strings.HasSuffix(p[:slash], "/memory")
}

// roleWord is a label's leading word (/^[A-Za-z][\w-]*/), or "".
func roleWord(label string) string {
	if label == "" || !isLetter(label[0]) {
		return ""
	}
	i := 1
	for i < len(label) && (isWordByte(label[i]) || label[i] == '-') {
		i++
	}
	return label[:i]
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// firstAt is when the work began: the first ask, else the first run; ok false when neither exists.
func firstAt(s *state.State) (int64, bool) {
	if len(s.Asks) > 0 {
		return s.Asks[0].At, true
	}
	if len(s.Runs) > 0 {
		return s.Runs[0].At, true
	}
	return 0, false
}

func askLines(s *state.State) []string {
	var first int64
	if len(s.Asks) > 0 {
		first = s.Asks[0].At
	}
	lines := make([]string, len(s.Asks))
	for i, a := range s.Asks {
		line := "turn:" + inum(a.Turn) + " | +" + round(float64(a.At-first)/60_000) + "m | " + a.Head
		if a.Pace {
			line += " | pace"
		}
		lines[i] = line
	}
	return lines
}

func gapLine(turns []state.TurnStat) string {
	var gaps []*state.TurnStat
	for i := range turns {
		if turns[i].IdleMs >= gapMinMs {
			gaps = append(gaps, &turns[i])
		}
	}
	if len(gaps) == 0 {
		return "gaps: none"
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].IdleMs > gaps[j].IdleMs })
	parts := make([]string, 0, listMax)
	for _, t := range gaps[:min(len(gaps), listMax)] {
		parts = append(parts, "turn:"+inum(t.Turn)+" idle "+round(float64(t.IdleMs)/60_000)+"m")
	}
	return "gaps: " + strings.Join(parts, ", ")
}

func cadenceLines(s *state.State) []string {
	var pace []string
	for _, a := range s.Asks {
		if a.Pace {
			pace = append(pace, "turn:"+inum(a.Turn))
		}
	}
	rows := make([]*state.Row, len(s.Rows))
	checks, commits := 0, 0
	for i := range s.Rows {
		r := &s.Rows[i]
		rows[i] = r
		if state.IsCheck(r) {
			checks++
		}
		if r.Cls == state.ClassGit && hasWord(r.Key, "commit") {
			commits++
		}
	}
	merges, checked := mergeChecks(rows)
	var last int64
	if n := len(s.Turns); n > 0 {
		last = s.Turns[n-1].At
	}
	head := []string{"turns " + inum(len(s.Turns))}
	if since, ok := firstAt(s); ok && last > since {
		head = append(head, "span "+minutes(last-since))
	}
	compactions := "compactions " + inum(len(s.Compactions))
	if len(s.Compactions) > 0 {
		turns := make([]string, len(s.Compactions))
		for i, t := range s.Compactions {
			turns[i] = inum(t)
		}
		compactions += " (turn " + strings.Join(turns, ", ") + ")"
	}
	complaints := "pace complaints " + inum(len(pace))
	if len(pace) > 0 {
		complaints += " (" + strings.Join(pace, ", ") + ")"
	}
	head = append(head, compactions, complaints)
	return []string{
		strings.Join(head, " · "),
		"checks " + inum(checks) + " · merges " + inum(merges) + " · checks after a merge " + inum(checked) + " · commits " + inum(commits),
		gapLine(s.Turns),
	}
}

// topCounts is the listMax most frequent entries, first seen first among equals.
func topCounts(entries []string) []struct {
	path string
	n    int
} {
	counts := map[string]int{}
	var order []string
	for _, e := range entries {
		if counts[e] == 0 {
			order = append(order, e)
		}
		counts[e]++
	}
	sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
	out := make([]struct {
		path string
		n    int
	}, 0, listMax)
	for _, p := range order[:min(len(order), listMax)] {
		out = append(out, struct {
			path string
			n    int
		}{p, counts[p]})
	}
	return out
}

func artifactLines(s *state.State) []string {
	var written, readPaths, touched []string
	edits := 0
	readers := map[string][]string{} // path → agents that read it, first seen first
	for i := range s.Rows {
		r := &s.Rows[i]
		if state.IsEdit(r) {
			edits++
			written = append(written, r.Paths...)
		}
		if r.Tool == "Read" {
			p := readPath(r.Key)
			readPaths = append(readPaths, p)
			if !slices.Contains(readers[p], r.Agent) {
				readers[p] = append(readers[p], r.Agent)
			}
			touched = append(touched, p)
		} else {
			touched = append(touched, r.Paths...)
		}
	}
	agentEdits := 0
	for i := range s.Loops {
		agentEdits += s.Loops[i].Edits
	}
	lines := []string{"edits " + inum(edits) + " on " + inum(len(state.Unique(written))) + " paths · agents' own edits " + inum(agentEdits)}
	if len(written) > 0 {
		top := topCounts(written)
		parts := make([]string, len(top))
		for i, t := range top {
			parts[i] = t.path + " ×" + inum(t.n)
		}
		lines = append(lines, "written: "+strings.Join(parts, " · "))
	}
	var reread []string
	for _, t := range topCounts(readPaths) {
		if t.n >= rereadMin {
			reread = append(reread, t.path+" ×"+inum(t.n)+" by "+inum(len(readers[t.path]))+" loops")
		}
	}
	if len(reread) > 0 {
		lines = append(lines, "re-read: "+strings.Join(reread, " · "))
	}
	// Memory files by name and path only: what they say is never read.
	for _, p := range state.Unique(touched) {
		if !isMemoryFile(p) {
			continue
		}
		how := "read"
		if slices.Contains(written, p) {
			how = "written"
		}
		lines = append(lines, "memory: "+p[strings.LastIndexByte(p, '/')+1:]+" "+p+" "+how)
	}
	return lines
}

// interventionLines is every process finding already raised, open ones too, in its own words, and
// every decided card: without them the next run mints the same divergence under a fresh id, and a
// second card undoes the person's Ignore.
func interventionLines(s *state.State) []string {
	var lines []string
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Decision == nil && p.Category != "process" {
			continue
		}
		status := "open"
		if p.Decision != nil {
			at := "-"
			if p.DecidedAtTurn != nil {
				at = inum(*p.DecidedAtTurn)
			}
			status = string(*p.Decision) + " @ " + at
		}
		sent := "sent ×" + inum(p.Sent)
		if p.Ignored > 0 {
			sent += " | ignored ×" + inum(p.Ignored)
		}
		cells := []string{p.ID, status, sent}
		if p.Category == "process" {
			cells = append(cells, p.Kind)
		}
		lines = append(lines, join(cells...))
	}
	return append(lines, "cards waiting "+inum(len(s.Cards))+" · standing instructions "+inum(len(s.Standing))+
		" · one-time notes pending "+inum(len(s.Notes))+" · subagents reached "+inum(len(s.Delivery.Agents)))
}
