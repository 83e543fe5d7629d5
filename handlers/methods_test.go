package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/saverd/saverd/session"
)

// connOnly are the methods of the connection, not of the session API: no session test dispatches them.
var connOnly = []string{"shutdown", "exit"}

// TestSessionTestsDispatchTheMethodTable: session's tests reach the API through their own dispatcher
// (session/wire_test.go, Table.handle), a copy of this package's method table. The two name the same
// methods, so a method added to one and not the other fails here rather than going untested there.
func TestSessionTestsDispatchTheMethodTable(t *testing.T) {
	want := slices.Sorted(maps.Keys(New(session.Options{TestHooks: true}).table))
	want = slices.DeleteFunc(want, func(m string) bool { return slices.Contains(connOnly, m) })
	got := dispatched(t, "../session/wire_test.go", "handle")
	if !slices.Equal(got, want) {
		t.Fatalf("session/wire_test.go's handle dispatches\n%q\nhandlers' method table (but %q) has\n%q", got, connOnly, want)
	}
}

// dispatched is the sorted string cases of the switch statements in the method fn of file.
func dispatched(t *testing.T, file, fn string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || fd.Recv == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s: a case of %s that is not a method name: %T", file, fn, e)
				}
				name, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, name)
			}
			return true
		})
	}
	if len(names) == 0 {
		t.Fatalf("%s: no method %s with a switch of method names", file, fn)
	}
	slices.Sort(names)
	return names
}
