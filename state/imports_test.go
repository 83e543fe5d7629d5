package state_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// forbidden are the imports that would make the core impure: the daemon's edges, I/O, logging,
// goroutine-heavy helpers. time is allowed only for its types and constants (see TestNoClock).
var forbidden = []string{
	"github.com/saverd/saverd/rpc",
	"github.com/saverd/saverd/handlers",
	"github.com/saverd/saverd/session",
	"github.com/saverd/saverd/impact",
	"github.com/saverd/saverd/store",
	"os", "os/exec", "net", "net/http", "io/ioutil", "log", "github.com/rs/zerolog",
	"github.com/sourcegraph/conc", "sync", "syscall",
}

// pureDirs are the pure packages, relative to state/.
var pureDirs = []string{".", "judge", "intake", "view", "rules", "demo", "detect", "../prices", "../internal/jsondepth", "../internal/jsonobj", "../internal/jstext", "../internal/jsonscan", "../internal/saverline", "../internal/hookline"}

// ioAllowed are the files of pure packages that may do I/O: prices reads its override file in one
// function kept apart from the arithmetic.
var ioAllowed = map[string]bool{filepath.Join("..", "prices", "override.go"): true}

// TestImportRules: the packages of state/, internal/jstext and prices/ are pure; they import none of rpc/, handlers/, session/, impact/.
func TestImportRules(t *testing.T) {
	for _, dir := range pureDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") || ioAllowed[file] {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if path == bad || strings.HasPrefix(path, bad+"/") {
						t.Errorf("%s imports %s: state/ must stay pure", file, path)
					}
				}
			}
		}
	}
}

// TestNoClockNoGoroutines: no wall clock and no goroutine in the pure core.
func TestNoClockNoGoroutines(t *testing.T) {
	for _, dir := range pureDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"time.Now(", "time.Since(", "go func(", "time.Sleep("} {
				if strings.Contains(string(src), bad) {
					t.Errorf("%s uses %s: time comes in as an argument, and state starts no goroutine", file, bad)
				}
			}
		}
	}
}

const module = "github.com/saverd/saverd/"

// layers are the imports each package of state/ must not make, so the layering is checked, not only
// described: the core imports none of the packages built on it; the views read the core and never the
// wire-to-row code (intake); intake and rules are built on the core alone; and no production file
// imports the test helpers.
var layers = map[string][]string{
	".":      {"state/intake", "state/view", "state/rules", "state/demo", "state/judge", "state/detect", "state/internal/statetest"},
	"intake": {"state/view", "state/rules", "state/demo", "state/judge", "state/detect", "state/internal/statetest"},
	"view":   {"state/intake", "state/demo", "state/judge", "state/internal/statetest"},
	"rules":  {"state/intake", "state/view", "state/demo", "state/judge", "state/internal/statetest"},
	"demo":   {"state/intake", "state/view", "state/rules", "state/judge", "state/internal/statetest"},
	"detect": {"state/view", "state/rules", "state/demo", "state/judge", "state/internal/statetest"},
}

// builtOnCore are the packages that exist to read the core, so they import it.
var builtOnCore = []string{"intake", "view", "rules", "demo", "detect"}

// TestLayering: the layers above hold, and each package built on the core imports it.
func TestLayering(t *testing.T) {
	for dir, banned := range layers {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no Go files", dir)
		}
		core := false
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				core = core || path == module+"state"
				for _, bad := range banned {
					if path == module+bad {
						t.Errorf("%s imports %s: the layering of state/ forbids it", file, path)
					}
				}
			}
		}
		if slices.Contains(builtOnCore, dir) && !core {
			t.Errorf("%s: no file imports the core (state)", dir)
		}
	}
}
