package detect

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// RepeatMinChars is the least a re-read or a repeated search must have put into the context again to be
// named: a repeat of a few hundred characters costs less than the card that names it.
const RepeatMinChars = 1000

// readPath is the file a row reads whole: a Read with no offset and no limit (key `path:-`), or a shell
// `cat` of one file; "" for anything else.
func (t *timeline) readPath(r *state.Row) string {
	switch {
	case r.Tool == "Read":
		if p, ok := strings.CutSuffix(r.Key, ":-"); ok {
			return p
		}
	case r.Tool == "Bash" && r.Cls == state.ClassRead:
		st := stages(t.command(r))
		if len(st) != 1 || st[0].piped {
			return ""
		}
		w := bare(st[0].words)
		if len(w) == 2 && baseName(w[0]) == "cat" && !strings.HasPrefix(w[1], "-") {
			return w[1]
		}
	}
	return ""
}

// reread finds a file read whole again in the same turn by the same loop with nothing between that
// changed it and no compaction in that turn. When the harness stubs an unchanged re-read (`dedup`),
// a re-read it did not stub was of a changed file, which the rows may not show: none is named then.
func reread(t *timeline) []Finding {
	if t.dedups {
		return nil
	}
	var c chains
	prev := t.lastSame(t.toolKey, func(k int) bool { return !t.rows[k].HasFlag("err") })
	for i := range t.rows {
		r := &t.rows[i]
		path := t.readPath(r)
		if path == "" || r.ID == "" || !ran(r) || r.HasFlag("err") || t.compactedIn(r.Turn) {
			continue
		}
		p := prev[i]
		if p < 0 || t.rows[p].HasFlag("trunc") || t.pathChangedBetween(p, i, path) {
			continue
		}
		c.add(r.Tool+"\t"+r.Key, p, i)
	}
	var out []Finding
	for _, k := range c.order {
		g := c.by[k]
		cost := t.costOf(g.repeats)
		if cost.Chars < RepeatMinChars {
			continue
		}
		r := &t.rows[g.row]
		path := t.readPath(r)
		cited := g.cited()
		why := code(path, 80) + " was read whole " + times(len(cited)) + " in " + t.turnsOf(cited) + " (" + t.handles(cited) +
			") with no edit or write to it between and no compaction, so each re-read put the same text into the context again: " + took(cost) + "."
		out = append(out, t.finding(Reread, idOf("reading", "reread", baseName(path), path), "reading",
			"Claude keeps re-reading "+code(path, 80)+" whole though nothing changed it",
			why,
			"Use what you already read of "+code(path, 60)+"; read it again only after it changed, and only the lines you need (offset and limit).",
			0.85, &state.Signature{Tool: r.Tool, Key: r.Key}, cited, g.repeats))
	}
	return out
}
