package judge

import (
	"slices"
	"sort"
	"strings"

	"github.com/saverd/saverd/state"
)

// STATS: the whole session counted for the judge, folded rows included; no ids.
//
//   - Per call, for every tool+key run more than once (the repeats are the question; a key seen once is
//     in LEDGER or nowhere): `tool | key | cls | ×count | Σ<ms>ms | Σ<chars>chars | turns <first>-<last> |
//     edits-between <median> | <agents>`, the statsKeys largest by characters, then `~ ×N more`.
//     edits-between is the median number of distinct files edited (by any loop) between consecutive
//     runs of the key still in the ledger — `-` when fewer than two are — counting an edit's paths, or
//     the edited file itself for an edit the host did not diff (staged). agents is the loops that ran
//     it, by alias, first seen first, at most statsAgentsShown then `+N`; a folded record counts under
//     the first loop folded into it.
//   - `waits: ×<n> | Σ<ms>ms | recommended ×<n>` over every AskUserQuestion, or `waits: none`.
//   - Per class `class <cls> | ×count | Σms | Σchars`, longest first, and per loop `agent <alias> | ×count
//     | Σms | Σchars`, main first then longest first, at most statsAgents lines then `~ ×N more`. These
//     two leave Agent launch rows out: a launch row's time and context contain its loop's own rows, which
//     are counted under that loop (TIME and CONTEXT list the launch rows apart).
const (
	statsKeys        = 40 // per-call lines
	statsAgentsShown = 6  // loops named in one per-call line
	statsClasses     = 12 // per-class lines
	statsAgents      = 20 // per-agent lines
)

// callStat is one tool+key over the whole session.
type callStat struct {
	tool, key string
	cls       state.CommandClass
	count     int
	ms, chars int64
	first     int
	last      int
	agents    []string // agent ids, first seen first
	positions []int    // indexes into s.Rows, ascending
}

// sum is one class's or one loop's count, time and context.
type sum struct {
	name      string
	count     int
	ms, chars int64
}

func statsBlock(s *state.State, aliases map[string]string) string {
	var lines []string
	lines = append(lines, callLines(s, aliases)...)
	lines = append(lines, waitsLine(s))
	lines = append(lines, classLines(s)...)
	lines = append(lines, agentLines(s, aliases)...)
	return joinLines(lines)
}

// callKey is a tool+key pair, as a map key that costs no concatenation.
type callKey struct{ tool, key string }

// callStats groups every row and folded record by tool+key; folded records first (they are older).
func callStats(s *state.State) map[callKey]*callStat {
	by := make(map[callKey]*callStat, len(s.Folded)+len(s.Rows)/2)
	for _, f := range s.Folded {
		by[callKey{f.Tool, f.Key}] = &callStat{
			tool: f.Tool, key: f.Key, cls: f.Cls, count: f.Count, ms: f.Ms, chars: f.Chars,
			first: f.FirstTurn, last: f.LastTurn, agents: []string{f.Agent},
		}
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		k := callKey{r.Tool, r.Key}
		c := by[k]
		if c == nil {
			c = &callStat{tool: r.Tool, key: r.Key, cls: r.Cls, first: r.Turn, last: r.Turn}
			by[k] = c
		}
		c.count++
		c.ms += r.Ms
		c.chars += r.Chars
		c.first = min(c.first, r.Turn)
		c.last = max(c.last, r.Turn)
		if !slices.Contains(c.agents, r.Agent) {
			c.agents = append(c.agents, r.Agent)
		}
		c.positions = append(c.positions, i)
	}
	return by
}

func callLines(s *state.State, aliases map[string]string) []string {
	var repeated []*callStat
	for _, c := range callStats(s) {
		if c.count > 1 {
			repeated = append(repeated, c)
		}
	}
	sort.Slice(repeated, func(i, j int) bool {
		a, b := repeated[i], repeated[j]
		if a.chars != b.chars {
			return a.chars > b.chars
		}
		if a.count != b.count {
			return a.count > b.count
		}
		if a.tool != b.tool {
			return a.tool < b.tool
		}
		return a.key < b.key
	})
	shown := min(len(repeated), statsKeys)
	lines := make([]string, 0, shown+1)
	ev := editsOf(s.Rows)
	stamp, gen := make([]int, ev.files), 0
	for _, c := range repeated[:shown] {
		lines = append(lines, join(
			cut(c.tool, toolMax), cut(c.key, state.KeyMax), cut(string(c.cls), clsMax), "×"+inum(c.count),
			"Σ"+num(c.ms)+"ms", "Σ"+num(c.chars)+"chars", "turns "+inum(c.first)+"-"+inum(c.last),
			"edits-between "+editsBetween(c.positions, ev, stamp, &gen), agentsCell(c.agents, aliases),
		))
	}
	if more := len(repeated) - shown; more > 0 {
		lines = append(lines, "~ ×"+inum(more)+" more")
	}
	return lines
}

// editEvents is every file edit in the ledger, in row order: the row's index and the file, interned.
// A row's files are its paths, or for an edit tool the host did not diff (staged), the file its key names.
type editEvents struct {
	at    []int // index into s.Rows, ascending
	file  []int // interned file
	files int   // distinct files
}

func editsOf(rows []state.Row) *editEvents {
	ev := &editEvents{}
	ids := map[string]int{}
	add := func(i int, f string) {
		id, ok := ids[f]
		if !ok {
			id = len(ids)
			ids[f] = id
		}
		ev.at = append(ev.at, i)
		ev.file = append(ev.file, id)
	}
	for i := range rows {
		r := &rows[i]
		if !state.IsEdit(r) {
			continue
		}
		if len(r.Paths) == 0 {
			add(i, r.Key)
		}
		for _, p := range r.Paths {
			add(i, p)
		}
	}
	ev.files = len(ids)
	return ev
}

// editsBetween is the median count of distinct files edited between consecutive positions (strictly
// between: a run's own row is not between); `-` for fewer than two. stamp is scratch space, one slot
// per file, reused across calls with gen counting up.
func editsBetween(positions []int, ev *editEvents, stamp []int, gen *int) string {
	if len(positions) < 2 {
		return "-"
	}
	gaps := make([]float64, 0, len(positions)-1)
	e := sort.SearchInts(ev.at, positions[0]+1)
	for k := 1; k < len(positions); k++ {
		*gen++
		n := 0
		for ; e < len(ev.at) && ev.at[e] < positions[k]; e++ {
			if ev.at[e] > positions[k-1] && stamp[ev.file[e]] != *gen {
				stamp[ev.file[e]] = *gen
				n++
			}
		}
		gaps = append(gaps, float64(n))
	}
	return jsNum(state.Median(gaps))
}

// agentsCell names the loops by alias, at most statsAgentsShown, then `+N`.
func agentsCell(agents []string, aliases map[string]string) string {
	shown := min(len(agents), statsAgentsShown)
	names := make([]string, shown)
	for i := range shown {
		names[i] = cut(state.AliasOf(aliases, agents[i]), aliasMax)
	}
	out := strings.Join(names, " ")
	if more := len(agents) - shown; more > 0 {
		out += " +" + inum(more)
	}
	return out
}

const askTool = "AskUserQuestion"

// waitsLine is every AskUserQuestion this session: how many, the total wait, how many named a default.
func waitsLine(s *state.State) string {
	n, rec := 0, 0
	var ms int64
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Tool != askTool && !r.HasFlag("ask") {
			continue
		}
		n++
		ms += r.Ms
		if r.HasFlag("recommended") {
			rec++
		}
	}
	for _, f := range s.Folded {
		if f.Tool != askTool && f.Flags.Ask == 0 {
			continue
		}
		n += f.Count
		ms += f.Ms
		rec += f.Flags.Recommended
	}
	if n == 0 {
		return "waits: none"
	}
	return "waits: " + join("×"+inum(n), "Σ"+num(ms)+"ms", "recommended ×"+inum(rec))
}

// sums adds rows and folded records up by name, Agent launch rows left out.
func sums(s *state.State, nameOf func(cls state.CommandClass, agent string) string) map[string]*sum {
	by := map[string]*sum{}
	add := func(name string, count int, ms, chars int64) {
		x := by[name]
		if x == nil {
			x = &sum{name: name}
			by[name] = x
		}
		x.count += count
		x.ms += ms
		x.chars += chars
	}
	for i := range s.Rows {
		if r := &s.Rows[i]; r.Tool != "Agent" {
			add(nameOf(r.Cls, r.Agent), 1, r.Ms, r.Chars)
		}
	}
	for _, f := range s.Folded {
		if f.Tool != "Agent" {
			add(nameOf(f.Cls, f.Agent), f.Count, f.Ms, f.Chars)
		}
	}
	return by
}

// byTime orders sums longest first, then by name (a shorter alias first: a2 before a11); first, when
// set, leads.
func byTime(by map[string]*sum, first string) []*sum {
	out := make([]*sum, 0, len(by))
	for _, x := range by {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.name == first) != (b.name == first) {
			return a.name == first
		}
		if a.ms != b.ms {
			return a.ms > b.ms
		}
		if len(a.name) != len(b.name) {
			return len(a.name) < len(b.name) // a2 before a11
		}
		return a.name < b.name
	})
	return out
}

func sumLines(prefix string, all []*sum, limit int) []string {
	shown := min(len(all), limit)
	lines := make([]string, 0, shown+1)
	for _, x := range all[:shown] {
		lines = append(lines, join(prefix+x.name, "×"+inum(x.count), "Σ"+num(x.ms)+"ms", "Σ"+num(x.chars)+"chars"))
	}
	if more := len(all) - shown; more > 0 {
		lines = append(lines, "~ ×"+inum(more)+" more")
	}
	return lines
}

func classLines(s *state.State) []string {
	by := sums(s, func(cls state.CommandClass, _ string) string { return cut(string(cls), clsMax) })
	return sumLines("class ", byTime(by, ""), statsClasses)
}

func agentLines(s *state.State, aliases map[string]string) []string {
	by := sums(s, func(_ state.CommandClass, agent string) string { return cut(state.AliasOf(aliases, agent), aliasMax) })
	return sumLines("agent ", byTime(by, state.MainAgent), statsAgents)
}
