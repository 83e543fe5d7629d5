package judge

import (
	"sort"
	"strings"

	"github.com/saverd/saverd/state"
)

// The PROCESS digest (the seed's digestOf): what the person typed, the shape of the spawned work, the
// cadence, the artifacts and the interventions, at most DigestMaxChars.

type sectionName int

const (
	secAsks sectionName = iota
	secShape
	secCadence
	secArtifacts
	secInterventions
)

// section is one digest section; pinned is its leading lines a cut never drops.
type section struct {
	name        sectionName
	header      string
	lines       []string
	oldestFirst bool
	pinned      int
}

// cutOrder is the sections cut first when the digest runs past its cap: the old asks, then the small
// sections; Shape is the last resort.
var cutOrder = []sectionName{secAsks, secArtifacts, secInterventions, secCadence, secShape}

const (
	cutMarkMax = 24     // room for the `~ ×N lines cut` line a cut section ends with
	listMax    = 10     // paths, re-reads and gaps each section names before it stops
	rereadMin  = 3      // reads of one path before it is named a re-read
	gapMinMs   = 60_000 // a wait shorter than a minute before the next prompt is the person reading
)

// The seed's regular expressions, matched by hand: the digest runs them over every row and loop.

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

// roleOf is the role a loop plays: its label's first word (`review:C3-r1` → `review`), else its phase,
// else `agent`.
func roleOf(l *state.Loop) string {
	if l.Label != nil {
		if w := roleWord(*l.Label); w != "" {
			return strings.ToLower(w)
		}
	}
	if l.Phase != nil {
		return strings.ToLower(*l.Phase)
	}
	return "agent"
}

// tally is `name ×n` counts, largest first then by name, joined by ` · `.
func tally(names []string) string {
	counts := map[string]int{}
	var order []string
	for _, n := range names {
		if counts[n] == 0 {
			order = append(order, n)
		}
		counts[n]++
	}
	sort.SliceStable(order, func(i, j int) bool {
		if counts[order[i]] != counts[order[j]] {
			return counts[order[i]] > counts[order[j]]
		}
		return less16(order[i], order[j])
	})
	parts := make([]string, len(order))
	for i, n := range order {
		parts[i] = n + " ×" + inum(counts[n])
	}
	return strings.Join(parts, " · ")
}

// outcomesCell is what a group of loops returned: severities summed across their reviews, reports counted.
func outcomesCell(loops []*state.Loop) string {
	var sev [4]int
	found, reports := 0, 0
	for _, l := range loops {
		if l.Outcome == nil {
			continue
		}
		switch l.Outcome.Kind {
		case state.OutcomeFindings:
			found++
			sev[0] += l.Outcome.Critical
			sev[1] += l.Outcome.High
			sev[2] += l.Outcome.Medium
			sev[3] += l.Outcome.Low
		case state.OutcomeReport:
			reports++
		}
	}
	var severities []string
	for i, name := range []string{"critical", "high", "medium", "low"} {
		if sev[i] > 0 {
			severities = append(severities, inum(sev[i])+" "+name)
		}
	}
	var parts []string
	switch {
	case len(severities) > 0:
		parts = append(parts, strings.Join(severities, " "))
	case found > 0:
		parts = append(parts, "0 findings")
	}
	if reports > 0 {
		parts = append(parts, "report ×"+inum(reports))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " · ")
}

func isMerge(r *state.Row) bool { return r.Cls == state.ClassGit && hasWord(r.Key, "merge") }

// mergeChecks counts the merges among rows, and the merges a check followed before the next merge.
func mergeChecks(rows []*state.Row) (merges, checked int) {
	sorted := append([]*state.Row(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Seq < sorted[j].Seq })
	open := false
	for _, r := range sorted {
		switch {
		case isMerge(r):
			merges++
			open = true
		case open && state.IsCheck(r):
			checked++
			open = false
		}
	}
	return merges, checked
}

// digest holds what the sections share: the session, the alias table, and each row's run.
type digest struct {
	s       *state.State
	aliases map[string]string
	rowRun  []string // the run each row belongs to, "" for none
	hasRun  []bool
}

func newDigest(s *state.State, aliases map[string]string) *digest {
	d := &digest{s: s, aliases: aliases, rowRun: make([]string, len(s.Rows)), hasRun: make([]bool, len(s.Rows))}
	loopRun := make(map[string]*string, len(s.Loops))
	for i := range s.Loops {
		if _, seen := loopRun[s.Loops[i].ID]; !seen {
			loopRun[s.Loops[i].ID] = s.Loops[i].Run
		}
	}
	// An agent's row belongs to its loop's run; a main-loop row to the newest run launched before it.
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Agent != state.MainAgent {
			if run := loopRun[r.Agent]; run != nil {
				d.rowRun[i], d.hasRun[i] = *run, true
			}
			continue
		}
		for j := len(s.Runs) - 1; j >= 0; j-- {
			if s.Runs[j].Seq <= r.Seq {
				d.rowRun[i], d.hasRun[i] = s.Runs[j].ID, true
				break
			}
		}
	}
	return d
}

func (d *digest) handle(l *state.Loop) string { return "agent:" + state.AliasOf(d.aliases, l.ID) }

func sumLoops(loops []*state.Loop) (ms, tokens int64, edits int) {
	for _, l := range loops {
		ms += l.Ms
		tokens += state.LoopTokens(l)
		edits += l.Edits
	}
	return ms, tokens, edits
}

// phaseLine is one declared (or seen) phase of a run: its loops, models, time, tokens, edits, outcomes.
func (d *digest) phaseLine(phase string, loops []*state.Loop) string {
	models := make([]string, len(loops))
	handles := make([]string, len(loops))
	for i, l := range loops {
		models[i] = modelShort(l.Model)
		handles[i] = d.handle(l)
	}
	ms, tokens, edits := sumLoops(loops)
	return join("  "+phase, "×"+inum(len(loops)), orDash(tally(models)), minutes(ms), ktok(tokens)+" tok",
		"edits "+inum(edits), outcomesCell(loops), orDash(strings.Join(handles, " ")))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func phaseOf(l *state.Loop) string {
	if l.Phase == nil {
		return "-"
	}
	return *l.Phase
}

func (d *digest) runLines(run *state.Run) []string {
	s := d.s
	var loops []*state.Loop
	for i := range s.Loops {
		if l := &s.Loops[i]; l.Run != nil && *l.Run == run.ID {
			loops = append(loops, l)
		}
	}
	var rows []*state.Row
	for i := range s.Rows {
		if d.hasRun[i] && d.rowRun[i] == run.ID {
			rows = append(rows, &s.Rows[i])
		}
	}
	merges, checked := mergeChecks(rows)
	phases := append([]string{}, run.Phases...)
	for _, l := range loops {
		phases = append(phases, phaseOf(l))
	}
	phases = state.Unique(phases)
	declared := "(none declared)"
	if len(run.Phases) > 0 {
		declared = strings.Join(run.Phases, " → ")
	}
	ms, tokens, edits := sumLoops(loops)
	lines := []string{join("run:"+run.ID, run.Name, "phases "+declared, "loops "+inum(len(loops)), "Σ"+minutes(ms),
		"Σ"+ktok(tokens)+" tok", "edits "+inum(edits), "merges "+inum(merges)+" · checks after "+inum(checked), "turn "+inum(run.Turn))}
	for _, p := range phases {
		var in []*state.Loop
		for _, l := range loops {
			if phaseOf(l) == p {
				in = append(in, l)
			}
		}
		lines = append(lines, d.phaseLine(p, in))
	}
	return lines
}

func (d *digest) directLine(l *state.Loop) string {
	label, ended := "-", "running"
	if l.Label != nil {
		label = *l.Label
	}
	if l.Ended != nil {
		ended = string(*l.Ended)
	}
	return join("  "+d.handle(l), label, modelShort(l.Model), minutes(l.Ms), ktok(state.LoopTokens(l))+" tok",
		"calls "+inum(l.Calls), "edits "+inum(l.Edits), ended)
}

func (d *digest) shapeLines() []string {
	s := d.s
	var lines []string
	for i := range s.Runs {
		lines = append(lines, d.runLines(&s.Runs[i])...)
	}
	runs := make(map[string]bool, len(s.Runs))
	for i := range s.Runs {
		runs[s.Runs[i].ID] = true
	}
	var direct []*state.Loop
	for i := range s.Loops {
		if l := &s.Loops[i]; l.Run == nil || !runs[*l.Run] {
			direct = append(direct, l)
		}
	}
	if len(direct) > 0 {
		lines = append(lines, "direct agents: ×"+inum(len(direct)))
		for _, l := range direct {
			lines = append(lines, d.directLine(l))
		}
	}
	roles := make([]string, len(s.Loops))
	for i := range s.Loops {
		roles[i] = roleOf(&s.Loops[i]) + " " + modelShort(s.Loops[i].Model)
	}
	t := tally(roles)
	if t == "" {
		t = "(no agents)"
	}
	return append(lines, "roles × model: "+t)
}

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
			if !state.Contains(readers[p], r.Agent) {
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
		if state.Contains(written, p) {
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

func render(sections []section) string {
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.header)
		if len(s.lines) == 0 {
			b.WriteString("\n" + none)
		}
		for _, l := range s.lines {
			b.WriteByte('\n')
			b.WriteString(l)
		}
	}
	return b.String()
}

// cutSection drops enough lines to give back over characters: the oldest first (after the pinned) where
// order is time, else the last; a `~ ×N lines cut` mark takes their place.
func cutSection(s section, over int) section {
	pinned := s.lines[:min(s.pinned, len(s.lines))]
	rest := append([]string{}, s.lines[len(pinned):]...)
	if !s.oldestFirst {
		reverse(rest)
	}
	removed, n := 0, 0
	for n < len(rest) && removed < over+cutMarkMax {
		removed += state.Len16(rest[n]) + 1
		n++
	}
	rest = rest[n:]
	mark := "~ ×" + inum(n) + " lines cut"
	lines := append([]string{}, pinned...)
	if s.oldestFirst {
		lines = append(append(lines, mark), rest...)
	} else {
		reverse(rest)
		lines = append(append(lines, rest...), mark)
	}
	s.lines = lines
	return s
}

func reverse(xs []string) {
	for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
		xs[i], xs[j] = xs[j], xs[i]
	}
}

const (
	asksHeader          = "## ASKS — what the person typed, oldest first: `turn:<n> | +<min>m since the first | what they typed`, then `| pace` when it complains about pace"
	shapeHeader         = "## SHAPE — one row per workflow run: `run:<id> | name | declared phases | loops | Σmin | Σtok | edits | merges · checks after | launch turn`, then per phase `phase | ×loops | models | min | tok | edits | outcomes | agent handles`; then agents outside any run, and every role by model"
	cadenceHeader       = "## CADENCE — turns, span, compactions, pace complaints; check runs, merges, merges a check followed, commits; the longest waits for the person"
	artifactsHeader     = "## ARTIFACTS — edits, the paths written most, paths re-read, memory files by name and path"
	interventionsHeader = "## INTERVENTIONS — process findings already raised and cards decided `id | open or decision @ turn | sent ×N`, a process finding's words after it; then what is waiting and what was sent"
)

// Digest is the PROCESS digest, at most DigestMaxChars: over the cap the oldest asks (never the first)
// go first, then the small sections, and Shape last. aliases is the loop naming the prompt is built
// with (nil: Aliases(s)), so a cited `agent:<alias>` reads back to its loop.
func Digest(s *state.State, aliases map[string]string) string {
	if aliases == nil {
		aliases = Aliases(s)
	}
	d := newDigest(s, aliases)
	sections := []section{
		{name: secAsks, header: asksHeader, lines: askLines(s), oldestFirst: true, pinned: 1},
		{name: secShape, header: shapeHeader, lines: d.shapeLines(), oldestFirst: true},
		{name: secCadence, header: cadenceHeader, lines: cadenceLines(s)},
		{name: secArtifacts, header: artifactsHeader, lines: artifactLines(s)},
		{name: secInterventions, header: interventionsHeader, lines: interventionLines(s)},
	}
	out := render(sections)
	for _, name := range cutOrder {
		over := state.Len16(out) - state.DigestMaxChars
		if over <= 0 {
			break
		}
		for i := range sections {
			if sections[i].name == name {
				sections[i] = cutSection(sections[i], over)
			}
		}
		out = render(sections)
	}
	return state.Cut16(out, state.DigestMaxChars)
}
