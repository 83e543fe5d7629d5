package detect

import (
	"slices"
	"strings"

	"github.com/saverd/saverd/state"
)

// Session is what the detectors read: the ledger's rows oldest first, the turns a compaction happened
// in, the session's directory, and — when the caller has them — what a row leaves out of its call.
type Session struct {
	Rows        []state.Row
	Compactions []int
	Cwd         string
	// Calls is what the rows leave out, by row id (tool_use_id); a row without an entry is read from
	// its key alone, and a detector that needs more stays silent about it.
	Calls map[string]Call
}

// Call is what a row leaves out of the call it records.
type Call struct {
	// Input is the call's whole input as canonical JSON (keys sorted, the event's own fields left out):
	// two calls with the same Input asked the same thing, where a key (cut at KeyMax, or made of a
	// Grep's pattern and path only) may be shared by different asks.
	Input string
	// Command is a shell call's whole command line, pipes and redirects included.
	Command string
}

// Detector names what found a finding.
type Detector string

// The detectors, in the order Run reports them.
const (
	Rerun  Detector = "rerun"
	Reread Detector = "reread"
	Suite  Detector = "suite"
	Output Detector = "output"
	Search Detector = "search"
)

// Detectors lists every detector in the order Run reports them.
var Detectors = []Detector{Rerun, Reread, Suite, Output, Search}

// Cost is what the cited waste measurably took: wall time and characters of context. The first run of
// a repeated call is the work, not the waste, and is never counted; an output's time is not either
// (a flag cuts what is printed, not what runs).
type Cost struct {
	Ms    int64 `json:"ms"`
	Chars int64 `json:"chars"`
}

// Finding is one detector's finding: a judge's finding in shape, which detector made it, the cited rows
// that were the waste (a repeated call's repeats, not its first run), and what they took.
type Finding struct {
	state.Finding
	Detector Detector `json:"detector"`
	Waste    []string `json:"waste"`
	Cost     Cost     `json:"cost"`
}

// Run is every detector's findings over the session, detector by detector, each detector's in the
// order of their first cited row.
func Run(s Session) []Finding {
	t := newTimeline(&s)
	var out []Finding
	out = append(out, rerun(t)...)
	out = append(out, reread(t)...)
	out = append(out, suite(t)...)
	out = append(out, output(t)...)
	out = append(out, search(t)...)
	return out
}

// timeline is the session indexed for the detectors: each row's change to the files, and where the
// rows of each loop and turn are.
type timeline struct {
	s       *Session
	rows    []state.Row
	changes []change
	// anyBefore[i] counts the rows before i that changed something (any path, or unknown); changing
	// lists those rows in order.
	anyBefore []int
	changing  []int
	dedups    bool // the harness answers an unchanged re-read with a stub
	// sameCall is lastSame by tool and key, made when a detector first asks (blindRerunOf).
	sameCall []int
}

func newTimeline(s *Session) *timeline {
	t := &timeline{s: s, rows: s.Rows, changes: make([]change, len(s.Rows)), anyBefore: make([]int, len(s.Rows)+1)}
	for i := range s.Rows {
		r := &s.Rows[i]
		t.changes[i] = changeOf(r, t.call(r)).withClean()
		t.anyBefore[i+1] = t.anyBefore[i]
		if t.changes[i].some() {
			t.anyBefore[i+1]++
			t.changing = append(t.changing, i)
		}
		t.dedups = t.dedups || r.HasFlag("dedup")
	}
	return t
}

// call is what the caller knows of a row's call beyond the row.
func (t *timeline) call(r *state.Row) Call { return t.s.Calls[r.ID] }

// command is a shell row's command: the whole line when known, else the key's text (the classified
// segment, or an unclassified command whole).
func (t *timeline) command(r *state.Row) string {
	if c := t.call(r).Command; c != "" {
		return c
	}
	return keyText(r.Key)
}

// keyText is a shell key without its class: `test:npm test` is `npm test`.
func keyText(key string) string {
	if i := strings.IndexByte(key, ':'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// changedBetween reports whether a row strictly between i and j changed anything.
func (t *timeline) changedBetween(i, j int) bool { return t.anyBefore[j]-t.anyBefore[i+1] > 0 }

// pathChangedBetween reports whether a row strictly between i and j changed path, or may have. Only the
// rows that changed something are looked at: a long turn re-reads files hundreds of rows apart.
func (t *timeline) pathChangedBetween(i, j int, path string) bool {
	if !t.changedBetween(i, j) {
		return false
	}
	p := cleanPath(path)
	from, _ := slices.BinarySearch(t.changing, i+1)
	for _, k := range t.changing[from:] {
		if k >= j {
			break
		}
		if t.changes[k].touches(p) {
			return true
		}
	}
	return false
}

// compactedIn reports whether a compaction happened in turn: what it dropped had to be read again.
func (t *timeline) compactedIn(turn int) bool { return slices.Contains(t.s.Compactions, turn) }

// ran reports whether a row's call ran: a call the person or a policy refused, or that the harness
// rejected before running it, did nothing (a transcript stores a refusal as the call's error text).
func ran(r *state.Row) bool {
	if r.HasFlag("denied") {
		return false
	}
	if !r.HasFlag("err") {
		return true
	}
	for _, p := range refusals {
		if strings.HasPrefix(r.Head, p) {
			return false
		}
	}
	return true
}

// refusals open the error text of a call that never ran: Claude Code's refusals and input errors,
// Codex's rejected command.
var refusals = []string{
	"The user doesn't want to proceed", "Permission to use ", "<tool_use_error>", "[Request interrupted by user",
	"exec command rejected", "patch rejected",
}

// callKey is what makes two calls of one loop the same call for lastSame.
type callKey struct{ agent, tool, key string }

// lastSame is, for each row, the last row before it of the same turn and loop that ran, carries the same
// tool and key (key's answer; an empty key is no call to match) and passes ok; -1 for none. One pass with a
// map: walking back from each row cost a long agentic turn (thousands of rows in one turn) the square of
// its rows.
func (t *timeline) lastSame(key func(k int) (tool, key string), ok func(k int) bool) []int {
	out := make([]int, len(t.rows))
	last := map[callKey]int{}
	for i := range t.rows {
		r := &t.rows[i]
		if i > 0 && r.Turn != t.rows[i-1].Turn {
			clear(last)
		}
		out[i] = -1
		tool, k := key(i)
		if k == "" {
			continue
		}
		ck := callKey{r.Agent, tool, k}
		if p, found := last[ck]; found {
			out[i] = p
		}
		if ran(r) && ok(i) {
			last[ck] = i
		}
	}
	return out
}

// toolKey is a row's tool and ledger key.
func (t *timeline) toolKey(k int) (string, string) { return t.rows[k].Tool, t.rows[k].Key }

// always is lastSame's ok for a call that matches whatever its result.
func always(int) bool { return true }

// ids is the row ids of rows[idx…].
func (t *timeline) ids(idx []int) []string {
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = t.rows[k].ID
	}
	return out
}

// costOf is Σms and Σchars over rows[idx…].
func (t *timeline) costOf(idx []int) Cost {
	var c Cost
	for _, k := range idx {
		c.Ms += t.rows[k].Ms
		c.Chars += t.rows[k].Chars
	}
	return c
}

// Unkept is the findings as the registry's merge takes them (judge.Merge), less those the person kept
// (Ignore) in this session by id or by signature: a keep silences a behaviour, as it does the judge's.
func Unkept(s *state.State, fs []Finding) []state.Finding {
	out := make([]state.Finding, 0, len(fs))
	for i := range fs {
		f := &fs[i].Finding
		if !kept(s, f) {
			out = append(out, *f)
		}
	}
	return out
}

func kept(s *state.State, f *state.Finding) bool {
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if !p.Decided(state.Ignore) {
			continue
		}
		if p.ID == f.ID || (p.Signature != nil && f.Signature != nil && *p.Signature == *f.Signature) {
			return true
		}
	}
	return false
}
