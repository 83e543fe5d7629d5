package state_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/saverd/saverd/internal/deptest"
)

const modulePath = "github.com/saverd/saverd"

// pureCore is the pure core as `go list` patterns: every package of state/ (statetest, test support,
// aside: only tests import it), prices, and the pure internal packages.
var pureCore = []string{modulePath + "/state/...", modulePath + "/prices", modulePath + "/internal/jsondepth",
	modulePath + "/internal/jsonobj", modulePath + "/internal/jstext", modulePath + "/internal/jsonscan"}

const testSupport = modulePath + "/state/internal/statetest"

// impure are the imports that no package the pure core links may make, but the standard library's own
// (fmt imports os): the edges of the daemon, I/O, logging, goroutine helpers.
var impure = []struct{ path, why string }{
	{"os", "files and the process"}, {"os/exec", "processes"}, {"net", "the network"}, {"syscall", "system calls"},
	{"io/ioutil", "files"}, {"log", "logging"}, {"github.com/rs/zerolog", "logging"},
	{"github.com/sourcegraph/conc", "goroutines"}, {modulePath + "/rpc", "the wire"},
	{modulePath + "/handlers", "the daemon"}, {modulePath + "/session", "the daemon's sessions"}, {modulePath + "/impact", "git and the agents' logs"},
	{modulePath + "/store", "the registry on disk"},
}

// moduleOnly are impure for this module's packages, which a third-party decoder may use inside itself.
var moduleOnly = []struct{ path, why string }{{"sync", "locks: the core runs under its session's lock, never its own"}}

// allowed are the impure imports the pure core links knowingly, importer and import, each with why.
var allowed = map[[2]string]string{
	{modulePath + "/prices", "os"}: "the override loader reads the price file, in override.go alone (TestImportRules)",
	{"golang.org/x/sys/cpu", "os"}: "reads the CPU's features once at start (/proc/self/auxv), by which segmentio's " +
		"JSON decoder, the core's, and internal/jsonscan's string scan pick their code",
	{"golang.org/x/sys/cpu", "syscall"}: "the same on macOS and Windows",
}

// TestCoreLinksNoIO: on every system saverd builds for, no package the pure core links — its own, the
// module's packages it reaches, the third-party ones — imports what impure names, and none of the
// module's reads the clock, sleeps or starts a goroutine (clockAndGoroutines). TestImportRules checks
// the pure packages' own imports file by file; this follows them as far as they go.
func TestCoreLinksNoIO(t *testing.T) {
	for _, goos := range deptest.Systems {
		t.Run(goos, func(t *testing.T) {
			g := deptest.List(t, goos, pureCore...)
			roots := slices.DeleteFunc(slices.Clone(g.Roots), func(r string) bool { return r == testSupport })
			for _, p := range g.Reach(roots...) {
				if p.Standard {
					continue
				}
				own := deptest.Within(p.ImportPath, modulePath)
				for _, imp := range p.Imports {
					rules := impure
					if own {
						rules = append(slices.Clone(impure), moduleOnly...)
					}
					for _, bad := range rules {
						if deptest.Within(imp, bad.path) && allowed[[2]string{p.ImportPath, imp}] == "" {
							t.Errorf("%s imports %s (%s), linked by the pure core: %s", p.ImportPath, imp, bad.why, g.Via(p.ImportPath, roots...))
						}
					}
				}
				if own {
					for _, found := range clockAndGoroutines(t, p) {
						t.Errorf("%s, linked by the pure core: %s", found, g.Via(p.ImportPath, roots...))
					}
				}
			}
		})
	}
}

// clocks are the functions of package time that read the clock or wait on it: time comes into the core
// as an argument.
var clocks = []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTimer", "NewTicker"}

// clockAndGoroutines is every call of one of clocks and every go statement in p's files, as
// "file:line: what".
func clockAndGoroutines(t *testing.T, p *deptest.Package) []string {
	t.Helper()
	var found []string
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		timeName := ""
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "time" {
				timeName = "time"
				if imp.Name != nil {
					timeName = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				found = append(found, fset.Position(n.Pos()).String()+": starts a goroutine")
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && timeName != "" && id.Name == timeName && slices.Contains(clocks, n.Sel.Name) {
					found = append(found, fset.Position(n.Pos()).String()+": reads the clock (time."+n.Sel.Name+")")
				}
			}
			return true
		})
	}
	return found
}

// TestCoreRulesNamePackages: the rules above are only as good as the names they hold, so each must be
// a package go list knows.
func TestCoreRulesNamePackages(t *testing.T) {
	var paths []string
	for _, r := range append(slices.Clone(impure), moduleOnly...) {
		paths = append(paths, r.path)
	}
	g := deptest.List(t, "linux", paths...)
	for _, path := range paths {
		if g.Packages[path] == nil {
			t.Errorf("the rules name %s, which go list does not know", path)
		}
	}
}
