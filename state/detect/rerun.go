package detect

import (
	"slices"

	"github.com/saverd/saverd/state"
)

// checkClasses are the commands whose result is a function of the files alone, so that running one
// again with nothing changed can only repeat what the last run said.
var checkClasses = map[state.CommandClass]bool{
	state.ClassTest: true, state.ClassLint: true, state.ClassFormat: true, state.ClassTypecheck: true,
	state.ClassBuild: true, state.ClassInstall: true,
}

// chain is the rows of one call that a detector found repeated: firsts are runs that were the work,
// repeats the ones that were waste. Both are cited.
type chain struct {
	row     int // the first row, for the finding's order
	firsts  []int
	repeats []int
}

// chains groups repeats by a key, in the order of their first row.
type chains struct {
	by    map[string]*chain
	order []string
}

func (c *chains) add(key string, first, repeat int) {
	if c.by == nil {
		c.by = map[string]*chain{}
	}
	g := c.by[key]
	if g == nil {
		g = &chain{row: first}
		c.by[key] = g
		c.order = append(c.order, key)
	}
	if !slices.Contains(g.firsts, first) && !slices.Contains(g.repeats, first) {
		g.firsts = append(g.firsts, first)
	}
	g.repeats = append(g.repeats, repeat)
}

// cited is every row of the chain, in ledger order.
func (g *chain) cited() []int {
	out := append(append([]int{}, g.firsts...), g.repeats...)
	slices.Sort(out)
	return out
}

// rerun finds checks run again in the same turn by the same loop with nothing changed between. A run
// after a failure or a timeout is a retry, excused once: a second blind retry of a failure is waste.
func rerun(t *timeline) []Finding {
	var c chains
	for i := range t.rows {
		r := &t.rows[i]
		if r.Tool != "Bash" || !checkClasses[r.Cls] || r.ID == "" || !ran(r) || r.HasFlag("bg") {
			continue
		}
		p := t.blindRerunOf(i)
		if p < 0 {
			continue
		}
		prev := &t.rows[p]
		if prev.HasFlag("timeout") || prev.HasFlag("bg") || (prev.HasFlag("err") && !t.failedRetry(p)) {
			continue
		}
		c.add(r.Key, p, i)
	}
	out := make([]Finding, 0, len(c.order))
	for _, k := range c.order {
		g := c.by[k]
		r := &t.rows[g.row]
		cmd := keyText(r.Key)
		cited := g.cited()
		confidence := 0.8
		if len(g.repeats) > 1 {
			confidence = 0.9
		}
		cost := t.costOf(g.repeats)
		why := code(cmd, 60) + " ran " + times(len(cited)) + " in " + t.turnsOf(cited) + " (" + t.handles(cited) +
			") with no edit and no file-changing command between the runs, so each re-run could only repeat the last one's result; the re-runs took " + took(cost) + "."
		out = append(out, t.finding(Rerun, idOf("execution", "rerun", cmd, ""), "execution",
			"Claude keeps re-running "+code(cmd, 70)+" with nothing edited since the last run",
			why,
			"Run "+code(cmd, 60)+" again only after a change; to see more of one run's output, save it to a file once and read that file.",
			confidence, &state.Signature{Tool: r.Tool, Key: r.Key}, cited, g.repeats))
	}
	return out
}

// blindRerunOf is the run row i repeats with nothing changed between (same tool and key, same loop and
// turn), or -1.
func (t *timeline) blindRerunOf(i int) int {
	if t.sameCall == nil {
		t.sameCall = t.lastSame(t.toolKey, always)
	}
	p := t.sameCall[i]
	if p < 0 || t.changedBetween(p, i) {
		return -1
	}
	return p
}

// failedRetry reports whether row p, which failed, was itself a blind retry of a failed run: the run
// after it is then the second retry of one failure.
func (t *timeline) failedRetry(p int) bool {
	pp := t.blindRerunOf(p)
	return pp >= 0 && t.rows[pp].HasFlag("err")
}
