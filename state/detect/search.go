package detect

import (
	"strings"

	"github.com/saverd/saverd/state"
)

// searchKey is what makes two searches the same: a Glob's key (its pattern and path are its whole
// input), a Grep's whole input (its key leaves out the mode, the file filter, the context lines…), a
// shell search's key; "" when the rows cannot tell.
func (t *timeline) searchKey(r *state.Row) string {
	switch {
	case r.Tool == "Glob":
		return r.Tool + "\t" + r.Key
	case r.Tool == "Grep":
		if in := t.call(r).Input; in != "" {
			return r.Tool + "\t" + in
		}
	case r.Tool == "Bash" && r.Cls == state.ClassSearch:
		return r.Tool + "\t" + r.Key
	}
	return ""
}

// search finds the same search made again in the same turn by the same loop with nothing changed
// between (a search after an edit checks the edit) and no compaction in that turn.
func search(t *timeline) []Finding {
	var c chains
	keys := make([]string, len(t.rows))
	for i := range t.rows {
		keys[i] = t.searchKey(&t.rows[i])
	}
	prev := t.lastSame(func(k int) (string, string) { return "", keys[k] }, always)
	for i := range t.rows {
		r := &t.rows[i]
		if keys[i] == "" || r.ID == "" || !ran(r) || t.compactedIn(r.Turn) {
			continue
		}
		p := prev[i]
		if p < 0 || t.changedBetween(p, i) {
			continue
		}
		c.add(keys[i], p, i)
	}
	var out []Finding
	for _, k := range c.order {
		g := c.by[k]
		cost := t.costOf(g.repeats)
		if cost.Chars < RepeatMinChars {
			continue
		}
		r := &t.rows[g.row]
		what := searchWords(r)
		cited := g.cited()
		why := "The same search, " + what + ", ran " + times(len(cited)) + " in " + t.turnsOf(cited) +
			" (" + t.handles(cited) + ") with nothing changed between, so it found what it had found; the repeats took " + took(cost) + "."
		out = append(out, t.finding(Search, idOf("reading", "repeated-search", keyText(r.Key), r.Tool+"\t"+k), "reading",
			"Claude keeps repeating the search "+what+" with nothing changed since",
			why,
			"Use the results of a search you already ran; search again only after an edit or with a different pattern or path.",
			0.8, &state.Signature{Tool: r.Tool, Key: r.Key}, cited, g.repeats))
	}
	return out
}

// searchWords names a search for a sentence: a shell search by its command, a Grep or Glob by its
// pattern and where it looked (its key is `Tool:pattern:path`).
func searchWords(r *state.Row) string {
	if r.Tool == "Bash" {
		return code(keyText(r.Key), 70)
	}
	rest := strings.TrimPrefix(r.Key, r.Tool+":")
	at := strings.LastIndexByte(rest, ':')
	if at < 0 {
		return r.Tool + " " + code(rest, 60)
	}
	if where := rest[at+1:]; where != "" {
		return r.Tool + " " + code(rest[:at], 50) + " in " + code(where, 40)
	}
	return r.Tool + " " + code(rest[:at], 60)
}
