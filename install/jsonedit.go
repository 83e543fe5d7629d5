package install

import (
	"encoding/json"
	"strings"

	"github.com/tailscale/hujson"
)

// patchText returns the settings file text changed so that it holds want (the tree the merge built
// from text's own parse), and every byte of text that saverd did not change exactly as it was: the
// file's indentation, line ends, key order, spacing and a leading BOM stay. Members and elements saverd
// adds are laid out as their neighbours are; removing what install added gives the file back byte for
// byte. The syntax tree is github.com/tailscale/hujson's, which packs back to the bytes it parsed.
func patchText(text string, want *Object) (string, error) {
	bom := ""
	if strings.HasPrefix(text, "\uFEFF") {
		bom, text = "\uFEFF", strings.TrimPrefix(text, "\uFEFF")
	}
	if strings.TrimSpace(text) == "" {
		return bom + Format(want), nil
	}
	root, err := hujson.Parse([]byte(text))
	if err != nil {
		return "", err
	}
	st := styleOf(text)
	st.patch(&root, want, "", true)
	return bom + string(root.Pack()), nil
}

// style is how a file lays itself out: its line end and its indentation unit.
type style struct{ nl, unit string }

// styleOf reads a file's line end (CRLF when it has one) and the indentation of its first indented
// line (two spaces, as Claude Code and Codex write, when it has none).
func styleOf(text string) style {
	st := style{nl: "\n", unit: "  "}
	if strings.Contains(text, "\r\n") {
		st.nl = "\r\n"
	}
	for _, line := range strings.Split(text, "\n")[1:] {
		if ws := line[:len(line)-len(strings.TrimLeft(line, " \t"))]; ws != "" && strings.TrimSpace(line) != "" {
			st.unit = ws
			break
		}
	}
	return st
}

// patch changes v, which sits at indentation indent, to hold want. A composite that stays one keeps its
// layout and is patched member by member; anything else is replaced. multiline says whether an empty
// composite here is laid out over lines (its parent's layout).
func (st style) patch(v *hujson.Value, want any, indent string, multiline bool) {
	if equal(v.Value, want) {
		return
	}
	switch w := want.(type) {
	case *Object:
		if o, ok := v.Value.(*hujson.Object); ok {
			st.patchObject(o, w, indent, multiline)
			return
		}
	case []any:
		if a, ok := v.Value.(*hujson.Array); ok {
			st.patchArray(a, w, indent, multiline)
			return
		}
	}
	v.Value = st.render(want, indent, multiline)
}

// patchObject removes the members want lacks, patches those it keeps and appends those it adds, in
// want's order (the merge keeps the file's order and appends what is new).
func (st style) patchObject(o *hujson.Object, want *Object, indent string, multiline bool) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if _, keep := want.Lookup(o.Members[i].Name.Value.(hujson.Literal).String()); !keep {
			removeAt(&o.Members, i, func(m *hujson.ObjectMember) *hujson.Value { return &m.Value })
			if len(o.Members) == 0 {
				o.AfterExtra = nil // emptied: {} again, as it was before install opened it
			}
		}
	}
	ml := st.multiline(len(o.Members), func(i int) hujson.Extra { return o.Members[i].Name.BeforeExtra }, o.AfterExtra, multiline)
	inner := st.inner(len(o.Members), func(i int) hujson.Extra { return o.Members[i].Name.BeforeExtra }, indent)
	at := map[string]int{}
	for i, m := range o.Members {
		at[m.Name.Value.(hujson.Literal).String()] = i
	}
	for _, k := range want.Keys() {
		if i, ok := at[k]; ok {
			st.patch(&o.Members[i].Value, want.Get(k), inner, ml)
			continue
		}
		m := hujson.ObjectMember{
			Name:  hujson.Value{Value: hujson.Literal(appendScalar(nil, k))},
			Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: st.render(want.Get(k), inner, ml)},
		}
		if n := len(o.Members); n > 0 {
			m.Name.BeforeExtra = clone(o.Members[n-1].Name.BeforeExtra)
			m.Value.BeforeExtra = clone(o.Members[n-1].Value.BeforeExtra)
		} else {
			m.Name.BeforeExtra, o.AfterExtra = st.opening(ml, inner, indent)
			if !ml {
				m.Value.BeforeExtra = nil
			}
		}
		o.Members = append(o.Members, m)
	}
}

// patchArray lines the array's elements up with want's: equal ones are kept, the ones want lacks are
// removed, new ones inserted, and a pair that differs (a hook group whose handlers changed) is patched
// in place. The merge only appends, removes and changes elements, so a greedy walk finds its edit.
func (st style) patchArray(a *hujson.Array, want []any, indent string, multiline bool) {
	ml := st.multiline(len(a.Elements), func(i int) hujson.Extra { return a.Elements[i].BeforeExtra }, a.AfterExtra, multiline)
	inner := st.inner(len(a.Elements), func(i int) hujson.Extra { return a.Elements[i].BeforeExtra }, indent)
	old := a.Elements
	out := make([]hujson.Value, 0, len(want))
	i, j := 0, 0
	add := func(w any) {
		e := hujson.Value{Value: st.render(w, inner, ml)}
		switch {
		case len(out) > 0:
			e.BeforeExtra = clone(out[len(out)-1].BeforeExtra)
		case i < len(old):
			e.BeforeExtra = clone(old[i].BeforeExtra)
		default:
			e.BeforeExtra, a.AfterExtra = st.opening(ml, inner, indent)
		}
		out = append(out, e)
	}
	for i < len(old) || j < len(want) {
		switch {
		case j == len(want):
			i++ // removed
		case i == len(old):
			add(want[j])
			j++
		case equal(old[i].Value, want[j]):
			out = append(out, old[i])
			i, j = i+1, j+1
		case indexEqual(old[i].Value, want[j+1:]) >= 0:
			add(want[j]) // inserted before an element that stays
			j++
		case indexEqualRev(want[j], old[i+1:]) >= 0:
			i++ // removed before an element that stays
		default:
			e := old[i]
			st.patch(&e, want[j], inner, ml)
			out = append(out, e)
			i, j = i+1, j+1
		}
	}
	if len(out) > 0 && len(old) > 0 && len(out[0].BeforeExtra) == 0 && len(old[0].BeforeExtra) > 0 {
		out[0].BeforeExtra = clone(old[0].BeforeExtra) // the first element keeps the array's opening layout
	}
	for k := range out {
		out[k].AfterExtra = nil // standard JSON: no trailing comma, no space before a comma
	}
	if len(out) == 0 {
		a.AfterExtra = nil
	}
	a.Elements = out
}

// removeAt removes a composite's i-th entry. When that empties it, the composite packs as {} or [];
// the entry that becomes the last keeps no space before its (now absent) comma.
func removeAt[T any](s *[]T, i int, value func(*T) *hujson.Value) {
	*s = append((*s)[:i], (*s)[i+1:]...)
	if n := len(*s); n > 0 && i == n {
		value(&(*s)[n-1]).AfterExtra = nil
	}
}

// multiline says whether a composite is laid out over lines: one with entries, when its first entry
// starts a line; an empty one, when it spans lines or its parent does.
func (st style) multiline(n int, before func(int) hujson.Extra, after hujson.Extra, parent bool) bool {
	if n > 0 {
		return strings.Contains(string(before(0)), "\n")
	}
	return parent || strings.Contains(string(after), "\n")
}

// inner is the indentation of a composite's entries: its first entry's, else one unit more than the
// composite's own.
func (st style) inner(n int, before func(int) hujson.Extra, indent string) string {
	if n > 0 {
		b := string(before(0))
		if i := strings.LastIndexByte(b, '\n'); i >= 0 {
			return b[i+1:]
		}
	}
	return indent + st.unit
}

// opening is the layout of the first entry put into an empty composite: the space before it and the
// space before the closing bracket.
func (st style) opening(multiline bool, inner, indent string) (before, after hujson.Extra) {
	if !multiline {
		return nil, nil
	}
	return hujson.Extra(st.nl + inner), hujson.Extra(st.nl + indent)
}

// render lays a new value out at indentation indent, over lines or on one, in the file's style.
func (st style) render(v any, indent string, multiline bool) hujson.ValueTrimmed {
	inner, open, space := indent+st.unit, hujson.Extra(st.nl+indent+st.unit), hujson.Extra(" ")
	close := hujson.Extra(st.nl + indent)
	if !multiline {
		open, space, close = nil, nil, nil
	}
	switch x := v.(type) {
	case *Object:
		o := &hujson.Object{}
		for _, k := range x.Keys() {
			o.Members = append(o.Members, hujson.ObjectMember{
				Name:  hujson.Value{BeforeExtra: clone(open), Value: hujson.Literal(appendScalar(nil, k))},
				Value: hujson.Value{BeforeExtra: clone(space), Value: st.render(x.Get(k), inner, multiline)},
			})
		}
		if len(o.Members) > 0 {
			o.AfterExtra = close
		}
		return o
	case []any:
		a := &hujson.Array{}
		for _, e := range x {
			a.Elements = append(a.Elements, hujson.Value{BeforeExtra: clone(open), Value: st.render(e, inner, multiline)})
		}
		if len(a.Elements) > 0 {
			a.AfterExtra = close
		}
		return a
	}
	return hujson.Literal(appendScalar(nil, v))
}

// equal reports whether a parsed value holds want: the same members in the same order, the same
// elements, the same scalars (numbers by their text, as the decoder keeps them).
func equal(v hujson.ValueTrimmed, want any) bool {
	switch x := v.(type) {
	case hujson.Literal:
		switch w := want.(type) {
		case string:
			return x.Kind() == '"' && x.String() == w
		case json.Number:
			return x.Kind() == '0' && string(x) == string(w)
		case bool:
			return (x.Kind() == 't' && w) || (x.Kind() == 'f' && !w)
		case nil:
			return x.Kind() == 'n'
		}
	case *hujson.Object:
		w, ok := want.(*Object)
		if !ok || w.Len() != len(x.Members) {
			return false
		}
		for i, k := range w.Keys() {
			m := x.Members[i]
			if m.Name.Value.(hujson.Literal).String() != k || !equal(m.Value.Value, w.Get(k)) {
				return false
			}
		}
		return true
	case *hujson.Array:
		w, ok := want.([]any)
		if !ok || len(w) != len(x.Elements) {
			return false
		}
		for i := range w {
			if !equal(x.Elements[i].Value, w[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func indexEqual(v hujson.ValueTrimmed, want []any) int {
	for i, w := range want {
		if equal(v, w) {
			return i
		}
	}
	return -1
}

func indexEqualRev(want any, vs []hujson.Value) int {
	for i, v := range vs {
		if equal(v.Value, want) {
			return i
		}
	}
	return -1
}

func clone(e hujson.Extra) hujson.Extra {
	if e == nil {
		return nil
	}
	return append(hujson.Extra{}, e...)
}
