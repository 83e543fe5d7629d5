package detect

import (
	"sort"
	"strings"

	"github.com/saverd/saverd/state"
)

// Repeat is one call made more than once, what all its runs took, and how many of its repeats came
// after a change to what it depends on (for a read, an edit of its file; for any other call, a change
// to any file): those are the look-alikes of waste, a read after an edit or a check after a fix.
type Repeat struct {
	Tool      string   `json:"tool"`
	Key       string   `json:"key"`
	Count     int      `json:"count"`
	Ms        int64    `json:"ms"`
	Chars     int64    `json:"chars"`
	AfterEdit int      `json:"afterEdit"`
	Rows      []string `json:"rows"`
	// IsRead: the call reads a file, and its repeats after a change are re-reads after an edit of it.
	IsRead bool `json:"-"`
}

// Repeats is every call the session made more than once, costliest (context, then time) first. Two
// calls are the same call when they asked the same thing: a shell command, a read or a Glob by its
// key; any other tool by its whole input when the session has it (two TodoWrites, two Grep modes or
// two agents' briefs that differ are different calls, whatever their keys share). An edit is never a
// repeat: edits to one file are the work on it. Calls that never ran (refused) are left out.
func Repeats(s Session) []Repeat {
	t := newTimeline(&s)
	type group struct {
		Repeat
		last int
	}
	at := map[string]*group{}
	var order []string
	for i := range t.rows {
		r := &t.rows[i]
		if r.Key == "" || !ran(r) || isEdit(r, t.command(r)) {
			continue
		}
		k := t.sameAs(r)
		g := at[k]
		if g == nil {
			g = &group{Repeat: Repeat{Tool: r.Tool, Key: r.Key, IsRead: r.Tool == "Read" || t.readPath(r) != ""}, last: i}
			at[k] = g
			order = append(order, k)
		} else if t.changedFor(r, g.last, i) {
			g.AfterEdit++
		}
		g.Count++
		g.Ms += r.Ms
		g.Chars += r.Chars
		g.Rows = append(g.Rows, r.ID)
		g.last = i
	}
	out := []Repeat{}
	for _, k := range order {
		if g := at[k]; g.Count > 1 {
			out = append(out, g.Repeat)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Chars != out[j].Chars {
			return out[i].Chars > out[j].Chars
		}
		return out[i].Ms > out[j].Ms
	})
	return out
}

// sameAs is what makes a call the same as another: its tool and key for the tools whose key is the
// ask (shell, file reads, Glob), else its whole input when known.
func (t *timeline) sameAs(r *state.Row) string {
	switch r.Tool {
	case "Bash", "Read", "Glob":
		return r.Tool + "\t" + r.Key
	}
	if in := t.call(r).Input; in != "" {
		return r.Tool + "\t\x00" + in
	}
	return r.Tool + "\t" + r.Key
}

// changedFor reports whether something row i depends on changed since row p: its file for a read,
// any file for anything else.
func (t *timeline) changedFor(r *state.Row, p, i int) bool {
	if r.Tool == "Read" {
		path := r.Key
		if at := strings.LastIndexByte(path, ':'); at > 0 {
			path = path[:at]
		}
		return t.pathChangedBetween(p, i, path)
	}
	if path := t.readPath(r); path != "" {
		return t.pathChangedBetween(p, i, path)
	}
	return t.changedBetween(p, i)
}
