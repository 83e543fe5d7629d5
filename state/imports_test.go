package state_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbidden are the imports that would make the core impure: the daemon's edges, I/O, logging,
// goroutine-heavy helpers. time is allowed only for its types and constants (see TestNoClock).
var forbidden = []string{
	"github.com/saverd/saverd/rpc",
	"github.com/saverd/saverd/handlers",
	"github.com/saverd/saverd/impact",
	"github.com/saverd/saverd/store",
	"os", "os/exec", "net", "net/http", "io/ioutil", "log", "github.com/rs/zerolog",
	"github.com/sourcegraph/conc", "sync", "syscall",
}

// pureDirs are the pure packages, relative to state/.
var pureDirs = []string{".", "judge", "../prices", "../internal/jsondepth", "../internal/jsonobj"}

// ioAllowed are the files of pure packages that may do I/O: prices reads its override file in one
// function kept apart from the arithmetic.
var ioAllowed = map[string]bool{filepath.Join("..", "prices", "override.go"): true}

// TestImportRules: state/, state/judge/ and prices/ are pure; they import none of rpc/, handlers/, impact/.
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
