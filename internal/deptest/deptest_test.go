package deptest

import (
	"slices"
	"testing"
)

// A graph as go list writes it: a → b → c → os, a → d, and e, a root of its own that links os at once.
const listed = `{"ImportPath":"os","Standard":true,"DepOnly":true}
{"ImportPath":"m/c","DepOnly":true,"Imports":["os"]}
{"ImportPath":"m/b","DepOnly":true,"Imports":["m/c"]}
{"ImportPath":"m/d","DepOnly":true}
{"ImportPath":"m/a","Imports":["m/b","m/d"]}
{"ImportPath":"m/e","Imports":["os"]}
`

func TestGraph(t *testing.T) {
	g, err := decode("linux", []byte(listed))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Roots, []string{"m/a", "m/e"}) {
		t.Fatalf("roots %v", g.Roots)
	}
	cases := []struct {
		path  string
		roots []string
		via   string
	}{
		{"os", nil, "m/e → os"},
		{"os", []string{"m/a"}, "m/a → m/b → m/c → os"},
		{"m/d", []string{"m/e"}, ""},
		{"m/a", nil, "m/a"},
	}
	for _, c := range cases {
		if got := g.Via(c.path, c.roots...); got != c.via {
			t.Errorf("Via(%s, %v) = %q, want %q", c.path, c.roots, got, c.via)
		}
	}
	var reached []string
	for _, p := range g.Reach("m/a") {
		reached = append(reached, p.ImportPath)
	}
	if !slices.Equal(reached, []string{"m/a", "m/b", "m/d", "m/c", "os"}) {
		t.Errorf("Reach(m/a) = %v", reached)
	}
	if _, err := decode("linux", nil); err == nil {
		t.Error("an empty listing decoded")
	}
	if _, err := decode("linux", []byte(`{"ImportPath":`)); err == nil {
		t.Error("a cut listing decoded")
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		path, prefix string
		want         bool
	}{{"m/state", "m/state", true}, {"m/state/view", "m/state", true}, {"m/statement", "m/state", false}, {"m", "m/state", false}} {
		if got := Within(c.path, c.prefix); got != c.want {
			t.Errorf("Within(%s, %s) = %v", c.path, c.prefix, got)
		}
	}
}
