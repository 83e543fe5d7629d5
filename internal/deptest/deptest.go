// Package deptest reads what packages link, through `go list -deps`, for the tests that hold a package
// to its imports transitively — cmd/saverd-hook linking nothing of the daemon, the pure core linking
// no I/O — where a reviewer reading the direct imports would miss a package that comes in two imports
// down. tailscale's tstest/deptest is the model: the test runs the go command itself, for each system
// saverd builds for, and a failure names the chain of imports that brought the package in.
package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Systems are the GOOS values saverd builds for (CI cross-builds each): a file built for one alone can
// bring in a package the others do not.
var Systems = []string{"linux", "darwin", "windows"}

// Package is one package as `go list -deps -json` describes it: the fields the rules read.
type Package struct {
	ImportPath string
	Standard   bool     // in the standard library
	DepOnly    bool     // reached only as a dependency of the patterns, not matched by one
	Dir        string   // its source directory
	GoFiles    []string // the files built for the system listed, relative to Dir
	Imports    []string // its direct imports, as built for the system listed
}

// Graph is what one `go list -deps` answered: every package the patterns match (Roots) and everything
// they link, by import path.
type Graph struct {
	GOOS     string
	Roots    []string
	Packages map[string]*Package
}

// List lists patterns and all they link as built for goos with cgo off (as saverd is released), from
// the module of the test's working directory. It fails the test when the go command does.
func List(t testing.TB, goos string, patterns ...string) *Graph {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Standard,DepOnly,Dir,GoFiles,Imports"}, patterns...)...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s (GOOS=%s): %v\n%s", strings.Join(patterns, " "), goos, err, stderr.Bytes())
	}
	g, err := decode(goos, out)
	if err != nil {
		t.Fatalf("go list -deps %s (GOOS=%s): %v", strings.Join(patterns, " "), goos, err)
	}
	return g
}

// decode reads go list's stream of JSON objects.
func decode(goos string, out []byte) (*Graph, error) {
	g := &Graph{GOOS: goos, Packages: map[string]*Package{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(Package)
		err := dec.Decode(p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		g.Packages[p.ImportPath] = p
		if !p.DepOnly {
			g.Roots = append(g.Roots, p.ImportPath)
		}
	}
	if len(g.Roots) == 0 {
		return nil, errors.New("no package matched")
	}
	return g, nil
}

// Via is the chain of imports from one of roots (the graph's own when none are given) to path
// ("a → b → path"), found breadth first so it is a shortest one; "" when no root links path.
func (g *Graph) Via(path string, roots ...string) string {
	if len(roots) == 0 {
		roots = g.Roots
	}
	from := map[string]string{}
	queue := append([]string(nil), roots...)
	for _, r := range roots {
		from[r] = ""
	}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if at == path {
			chain := []string{at}
			for p := from[at]; p != ""; p = from[p] {
				chain = append([]string{p}, chain...)
			}
			return strings.Join(chain, " → ")
		}
		if p := g.Packages[at]; p != nil {
			for _, imp := range p.Imports {
				if _, seen := from[imp]; !seen {
					from[imp] = at
					queue = append(queue, imp)
				}
			}
		}
	}
	return ""
}

// Reach is the packages roots link, the roots included, in breadth-first order.
func (g *Graph) Reach(roots ...string) []*Package {
	var out []*Package
	seen := map[string]bool{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		p := g.Packages[at]
		if seen[at] || p == nil {
			continue
		}
		seen[at] = true
		out = append(out, p)
		queue = append(queue, p.Imports...)
	}
	return out
}

// Within reports whether path is prefix or a package under it.
func Within(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
