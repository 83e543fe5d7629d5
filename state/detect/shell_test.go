package detect

import (
	"slices"
	"strings"
	"testing"
)

func TestStages(t *testing.T) {
	cases := []struct {
		line string
		want string // stages as words joined by spaces, `|` after a piped one, stages joined by " ; "
	}{
		{"npm test", "npm test"},
		{"cd web && npm test 2>&1 | tail -40", "cd web ; npm test| ; tail -40"},
		{`grep -E "foo|bar" src/app.ts`, "grep -E foo|bar src/app.ts"},
		{"find . -type f > files.txt", "find . -type f|"},
		{"npm run build; npm run build", "npm run build ; npm run build"},
		{`echo 'a;b' && cat x\ y`, "echo a;b ; cat x y"},
		{"sleep 1 & wait", "sleep 1 ; wait"},
		{"a || b", "a ; b"},
		{"", ""},
	}
	for _, c := range cases {
		var parts []string
		for _, st := range stages(c.line) {
			p := strings.Join(st.words, " ")
			if st.piped {
				p += "|"
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, " ; "); got != c.want {
			t.Errorf("stages(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestParseTest(t *testing.T) {
	cases := []struct {
		cmd    string
		runner string // "" when not a runner the detector knows
		whole  bool
		narrow string // narrowed to src/a.test.ts (go: pkg/a/a_test.go)
	}{
		{"npx jest", "jest", true, "npx jest src/a.test.ts"},
		{"jest --coverage", "jest", true, "jest --coverage src/a.test.ts"},
		{"npx jest src/a.test.ts", "jest", false, ""},
		{"npx jest -t 'adds items'", "jest", false, ""},
		{"npx vitest run", "vitest", true, "npx vitest run src/a.test.ts"},
		{"vitest --reporter dot", "vitest", true, "vitest --reporter dot src/a.test.ts"},
		{"bun test", "bun", true, "bun test src/a.test.ts"},
		{"pytest", "pytest", true, "pytest src/a.test.ts"},
		{"python -m pytest tests/", "pytest", true, "python -m pytest src/a.test.ts"},
		{"pytest -k cart", "pytest", false, ""},
		{"go test ./...", "go", true, "go test ./pkg/a"},
		{"go test -race ./...", "go", true, "go test -race ./pkg/a"},
		{"go test ./pkg/a", "go", false, ""},
		{"go test -run TestCart ./...", "go", false, ""},
		{"go test", "go", false, ""},
		{"npm test", "npm", true, "npm test src/a.test.ts"},
		{"npm run test -- --watch=false", "npm", true, "npm run test -- --watch=false src/a.test.ts"},
		{"npm test -- src/a.test.ts", "npm", false, ""},
		{"yarn test", "yarn", true, "yarn test src/a.test.ts"},
		{"cargo test", "", false, ""},
		{"npm run test:e2e", "", false, ""},
	}
	for _, c := range cases {
		st := stages(c.cmd)
		tr, ok := parseTest(st[0].words)
		if !ok {
			if c.runner != "" {
				t.Errorf("parseTest(%q): not a runner, want %s", c.cmd, c.runner)
			}
			continue
		}
		if tr.runner != c.runner || tr.whole() != c.whole {
			t.Errorf("parseTest(%q) = %s whole %v, want %s whole %v", c.cmd, tr.runner, tr.whole(), c.runner, c.whole)
			continue
		}
		if !c.whole {
			continue
		}
		test := "/home/dev/shop/src/a.test.ts"
		if tr.runner == "go" {
			test = "/home/dev/shop/pkg/a/a_test.go"
		}
		if got := tr.narrowed(test, "/home/dev/shop", false); got != c.narrow {
			t.Errorf("narrowed(%q) = %q, want %q", c.cmd, got, c.narrow)
		}
	}
}

func TestTestOf(t *testing.T) {
	js := &testRun{runner: "jest"}
	goRun := &testRun{runner: "go"}
	cases := []struct {
		edited string
		known  []string
		tr     *testRun
		want   string
	}{
		{"src/auth.ts", []string{"src/auth.test.ts"}, js, "src/auth.test.ts"},
		{"src/auth.ts", []string{"/r/src/__tests__/auth.ts"}, js, "/r/src/__tests__/auth.ts"},
		{"src/auth.ts", []string{"src/authz.test.ts"}, js, ""},
		{"src/auth.ts", []string{"src/auth.test.py"}, js, ""},
		{"src/auth.test.ts", nil, js, "src/auth.test.ts"},
		{"pkg/a/a.go", []string{"pkg/a/b_test.go"}, goRun, "pkg/a/b_test.go"},
		{"pkg/a/a.go", []string{"pkg/b/a_test.go"}, goRun, ""},
		{"app/models.py", []string{"tests/test_models.py"}, &testRun{runner: "pytest"}, "tests/test_models.py"},
	}
	for _, c := range cases {
		var known []knownTest
		for _, k := range c.known {
			known = append(known, knownTestOf(k))
		}
		if got := testOf(c.edited, known, c.tr); got != c.want {
			t.Errorf("testOf(%q, %q) = %q, want %q", c.edited, c.known, got, c.want)
		}
	}
}

func TestCutterOf(t *testing.T) {
	cases := []struct {
		cmd  string
		want bool
	}{
		{"find . -type f", true},
		{"find . -maxdepth 2 -type f", false},
		{"tree", true},
		{"tree -L 2", false},
		{"tree -L2", false},
		{"ls -laR src", true},
		{"ls -la", false},
		{"npm install", true},
		{"npm ci", true},
		{"npm install --silent", false},
		{"npm i --loglevel=error", false},
		{"yarn", true},
		{"pnpm add zod", true},
		{"pip install -r requirements.txt", true},
		{"pip install -qr requirements.txt", false},
		{"python3 -m pip install requests", true},
		{"apt-get install -y curl", true},
		{"apt-get install -qq -y curl", false},
		{"docker logs api", true},
		{"docker logs --tail 50 api", false},
		{"kubectl logs pod/api", true},
		{"kubectl logs pod/api --tail=100", false},
		{"journalctl -u api", true},
		{"journalctl -u api -n 100", false},
		{"git log", true},
		{"git log -20", false},
		{"git log --oneline -n 5", false},
		{"git -C repo log", true},
		{"git diff", false},
		{"gh run view 1 --log", true},
		{"gh run view 1 --log-failed", false},
		{"cargo build", true},
		{"cargo build -q", false},
		{"npm test", false},
		{"cat big.log", false},
	}
	for _, c := range cases {
		st := stages(c.cmd)
		_, got := cutterOf(bare(st[0].words))
		if got != c.want {
			t.Errorf("cutterOf(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestShellQuiet(t *testing.T) {
	quiet := []string{"npm test", "go build ./...", "cat a.ts", "rg foo", "git status", "git -C x diff", "gh pr view",
		"npx prettier --check .", "gofmt -l .", "eslint src", "pwd", "cd web && npm test", "wc -l a.ts", "find . -name x"}
	loud := []string{"sed -i s/a/b/ x", "find . -name x -delete", "npm install", "git checkout main", "git stash",
		"npx prettier --write .", "eslint --fix src", "echo x > a.txt", "cat a | tee b", "./gen.sh", "make", "rm -rf dist",
		"mv a b", "python script.py", "npx jest -u", "go test ./... -update", ""}
	for _, c := range quiet {
		if !shellQuiet(c) {
			t.Errorf("shellQuiet(%q) = false, want true", c)
		}
	}
	for _, c := range loud {
		if shellQuiet(c) {
			t.Errorf("shellQuiet(%q) = true, want false", c)
		}
	}
}

func TestIDOf(t *testing.T) {
	long := "find / -name '*.json' -type f -not -path '*/node_modules/*'"
	a, b := idOf("reading", "unfiltered", long, ""), idOf("reading", "unfiltered", long+" -newer x", "")
	if a == b || !idShape(a) || !idShape(b) {
		t.Errorf("ids %q and %q: want two distinct judge-shaped ids", a, b)
	}
	x, y := idOf("reading", "reread", "index.ts", "/r/a/index.ts"), idOf("reading", "reread", "index.ts", "/r/b/index.ts")
	if x == y || !slices.Contains([]string{x, y}, x) || !strings.HasPrefix(x, "reading:reread-index-ts-") {
		t.Errorf("two files named index.ts share an id: %q, %q", x, y)
	}
}
