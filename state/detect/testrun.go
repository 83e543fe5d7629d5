package detect

import (
	"path"
	"slices"
	"strings"
)

// testRun is a test command as the suite detector reads it: which runner, the words that start it,
// its operands, and whether it runs the whole suite.
type testRun struct {
	runner string   // jest, vitest, mocha, bun, pytest, go; npm, yarn, pnpm or bun for a script
	prefix []string // the words up to the operands: `npx jest`, `go test`, `npm test`
	args   []string // its operands (flags and their values left out)
	flags  []string // its flags that do not filter, with their values
	filter bool     // a name filter narrows it (-t, -k, -run, --grep…)
	sep    bool     // a script's operands came after `--`
	script bool     // the runner is a package script, whose tool the command does not name
}

// filterFlags narrow a run to some tests by name.
var filterFlags = []string{"-t", "--testNamePattern", "--testPathPattern", "-k", "-run", "--grep", "-g", "--project", "--changed", "--onlyChanged", "-o", "--findRelatedTests", "--lf", "--last-failed"}

// valueFlags take the next word as their value.
var valueFlags = []string{"-c", "--config", "--reporter", "--reporters", "-R", "-p", "-count", "-timeout", "-tags", "-coverprofile", "-n", "--rootdir", "--maxWorkers", "--pool", "--environment", "--env"}

// suiteDirs are operands that still mean the whole suite.
var suiteDirs = []string{".", "./", "test", "tests", "test/", "tests/", "./test", "./tests", "__tests__", "spec", "src", "./src"}

// parseTest reads a test command's words; false when it is no runner the detector knows.
func parseTest(words []string) (testRun, bool) {
	w := bare(words)
	var tr testRun
	take := func(n int) {
		tr.prefix = append(tr.prefix, w[:n]...)
		w = w[n:]
	}
	if len(w) > 0 && (w[0] == "npx" || w[0] == "bunx" || (w[0] == "pnpm" || w[0] == "yarn") && len(w) > 1 && isRunnerName(w[1])) {
		take(1)
	}
	if len(w) > 2 && (baseName(w[0]) == "python" || baseName(w[0]) == "python3") && w[1] == "-m" {
		take(2)
	}
	switch {
	case len(w) == 0:
		return testRun{}, false
	case isRunnerName(baseName(w[0])):
		tr.runner = baseName(w[0])
		take(1)
		if tr.runner == "vitest" && len(w) > 0 && w[0] == "run" {
			take(1)
		}
	case len(w) > 1 && w[0] == "bun" && w[1] == "test":
		tr.runner = "bun"
		take(2)
	case len(w) > 1 && w[0] == "go" && w[1] == "test":
		tr.runner = "go"
		take(2)
	case len(w) > 1 && (w[0] == "npm" || w[0] == "yarn" || w[0] == "pnpm") && (w[1] == "test" || w[1] == "t"):
		tr.runner, tr.script = w[0], true
		take(2)
	case len(w) > 2 && (w[0] == "npm" || w[0] == "yarn" || w[0] == "pnpm" || w[0] == "bun") && w[1] == "run" && w[2] == "test":
		tr.runner, tr.script = w[0], true
		take(3)
	default:
		return testRun{}, false
	}
	for i := 0; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "--" && tr.script:
			tr.sep = true
		case hasFlag([]string{a}, filterFlags...):
			tr.filter = true
			if !strings.Contains(a, "=") {
				i++
			}
		case slices.Contains(valueFlags, a):
			tr.flags = append(tr.flags, a)
			if i+1 < len(w) {
				tr.flags = append(tr.flags, w[i+1])
			}
			i++
		case strings.HasPrefix(a, "-"):
			tr.flags = append(tr.flags, a)
		default:
			tr.args = append(tr.args, a)
		}
	}
	return tr, true
}

func isRunnerName(w string) bool {
	return w == "jest" || w == "vitest" || w == "mocha" || w == "pytest"
}

// whole reports whether the run is the whole suite: no name filter, and no operand but the suite's
// own directories (for go test, `./...`; a bare `go test` runs one package).
func (tr *testRun) whole() bool {
	if tr.filter {
		return false
	}
	if tr.runner == "go" {
		return slices.Contains(tr.args, "./...") || slices.Contains(tr.args, "...")
	}
	for _, a := range tr.args {
		if !slices.Contains(suiteDirs, a) {
			return false
		}
	}
	return true
}

// language is the file extensions the runner tests.
func (tr *testRun) language() []string {
	switch tr.runner {
	case "pytest":
		return []string{".py"}
	case "go":
		return []string{".go"}
	}
	return []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte"}
}

// narrowed is the run of one test: the file for a file runner, the package directory for go test.
// A script's own runner is not named, so its form is the one the session used (after `--` or not).
func (tr *testRun) narrowed(test, cwd string, sep bool) string {
	words := append([]string{}, tr.prefix...)
	if tr.script && (sep || tr.sep) {
		words = append(words, "--")
	}
	words = append(words, tr.flags...)
	target := relTo(test, cwd)
	if tr.runner == "go" {
		target = path.Dir(target)
		if target != "." && !strings.HasPrefix(target, "/") {
			target = "./" + target
		}
	}
	return strings.Join(append(words, target), " ")
}

// relTo is p relative to dir when it is inside it.
func relTo(p, dir string) string {
	if dir != "" {
		if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(dir, "/")+"/"); ok {
			return rest
		}
	}
	return p
}

// isTestFile reports whether a path names a test file by the usual conventions.
func isTestFile(p string) bool {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasSuffix(base, "_spec.rb"):
		return true
	case strings.HasSuffix(base, ".py"):
		return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
	}
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.Contains(p, "/__tests__/")
}

// stem is a file's name with its extension and its test marks taken off: `auth.test.ts`, `auth.ts`,
// `test_auth.py` and `auth_test.go` are all `auth`.
func stem(p string) string {
	base := path.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	base = strings.TrimPrefix(base, "test_")
	base = strings.TrimSuffix(base, "_test")
	base = strings.TrimSuffix(base, "_spec")
	return base
}

// knownTest is a test file the session named, with what testOf matches it by.
type knownTest struct {
	path, stem, dir, ext string
}

func knownTestOf(p string) knownTest {
	return knownTest{path: p, stem: stem(p), dir: path.Dir(p), ext: path.Ext(p)}
}

// testOf is the test of an edited file among the test files the session named: the file itself when it
// is a test, else a test file with its stem (for go, any test file of its directory: go test runs
// packages).
func testOf(edited string, known []knownTest, tr *testRun) string {
	if isTestFile(edited) {
		return edited
	}
	lang, dir, st := tr.language(), path.Dir(edited), stem(edited)
	for _, k := range known {
		if !slices.Contains(lang, k.ext) {
			continue
		}
		if tr.runner == "go" {
			if samePath(k.dir, dir) {
				return k.path
			}
			continue
		}
		if k.stem == st {
			return k.path
		}
	}
	return ""
}
