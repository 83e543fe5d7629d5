package detect

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/golden"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// detectorCase is a session and the findings the detectors must make of it.
type detectorCase struct {
	name  string
	build func(s *session)
	want  []string // finding ids, in Run's order
}

// TestDetectors: a waste is named with its rows, and every look-alike of it — the same call after a
// change, a retry, a range read, another loop's call, a turn later — is named by none.
func TestDetectors(t *testing.T) {
	for _, c := range detectorCases() {
		t.Run(c.name, func(t *testing.T) {
			s := newSession()
			c.build(s)
			got := ids(s.detect())
			want := c.want
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(got, want) {
				t.Errorf("findings %q, want %q", got, want)
			}
		})
	}
}

// detectorCases are TestDetectors' sessions: wastes, and the look-alikes of each.
func detectorCases() []detectorCase {
	return []detectorCase{
		{"four builds back to back", func(s *session) {
			for range 4 {
				s.bash("npm run build", 900, lasting(20_000))
			}
		}, []string{"execution:rerun-npm-run-build"}},
		{"a build after each edit", func(s *session) {
			s.bash("npm run build", 900)
			s.edit("/home/dev/shop/src/a.ts", "a", "b")
			s.bash("npm run build", 900)
			s.edit("/home/dev/shop/src/a.ts", "b", "c")
			s.bash("npm run build", 900)
		}, nil},
		{"a build after a command that may write", func(s *session) {
			s.bash("npm run build", 900)
			s.bash("./scripts/codegen.sh", 100)
			s.bash("npm run build", 900)
		}, nil},
		{"a build in each turn", func(s *session) {
			s.bash("npm run build", 900)
			s.prompt()
			s.bash("npm run build", 900)
		}, nil},
		{"one retry of a failed build", func(s *session) {
			s.bash("npm run build", 900, failed)
			s.bash("npm run build", 900)
		}, nil},
		{"a second blind retry of a failure", func(s *session) {
			s.bash("npm test", 900, failed)
			s.bash("npm test", 900, failed)
			s.bash("npm test", 900, failed)
		}, []string{"execution:rerun-npm-test"}},
		{"a retry after a timeout", func(s *session) {
			s.call("Bash", map[string]any{"command": "go test ./..."}, "", result(map[string]any{"timedOutAfterMs": 120000.0}))
			s.bash("go test ./...", 900)
		}, nil},
		{"the same tests by two loops", func(s *session) {
			s.bash("go test ./...", 900, by("agent-1"))
			s.bash("go test ./...", 900)
		}, nil},
		{"a refused run is no run", func(s *session) {
			s.bash("npm run lint", 900, denied)
			s.bash("npm run lint", 900)
		}, nil},
		{"reads between runs change nothing", func(s *session) {
			s.bash("npx tsc --noEmit", 900)
			s.read("/home/dev/shop/src/a.ts", 100)
			s.call("Grep", map[string]any{"pattern": "foo"}, "a.ts")
			s.bash("git status", 100)
			s.bash("npx tsc --noEmit", 900)
		}, []string{"execution:rerun-npx-tsc-noemit"}},
		{"a re-run after git checkout", func(s *session) {
			s.bash("npx tsc --noEmit", 900)
			s.bash("git checkout main", 100)
			s.bash("npx tsc --noEmit", 900)
		}, nil},
		{"a re-run after a formatter that writes", func(s *session) {
			s.bash("npm test", 900)
			s.bash("npx prettier --write src", 100)
			s.bash("npm test", 900)
		}, nil},
		{"a re-run after a formatter that checks", func(s *session) {
			s.bash("npm test", 900)
			s.bash("npx prettier --check src", 100)
			s.bash("npm test", 900)
		}, []string{"execution:rerun-npm-test"}},
		{"the same test with a different filter is the same run", func(s *session) {
			s.bash("npm test 2>&1 | tail -20", 900)
			s.bash("npm test 2>&1 | grep FAIL", 900)
		}, []string{"execution:rerun-npm-test"}},
		{"a re-run after an agent that edited", func(s *session) {
			s.bash("npm test", 900)
			s.call("Agent", map[string]any{"subagent_type": "general-purpose", "prompt": "fix"}, "done",
				result(map[string]any{"toolStats": map[string]any{"editFileCount": 2.0}}))
			s.bash("npm test", 900)
		}, nil},

		{"a file read whole twice", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.bash("npm test", 900)
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, []string{"reading:reread-cart-ts-" + hashOf("/home/dev/shop/src/cart.ts")}},
		{"a re-read after an edit", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.edit("/home/dev/shop/src/cart.ts", "a", "b")
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, nil},
		{"a re-read after a sed -i", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.bash("sed -i 's/a/b/' src/cart.ts", 0)
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, nil},
		{"an edit to another file does not excuse a re-read", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.edit("/home/dev/shop/src/other.ts", "a", "b")
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, []string{"reading:reread-cart-ts-" + hashOf("/home/dev/shop/src/cart.ts")}},
		{"paging is no re-read", func(s *session) {
			s.readRange("/home/dev/shop/src/big.ts", 1, 500)
			s.readRange("/home/dev/shop/src/big.ts", 500, 500)
			s.readRange("/home/dev/shop/src/big.ts", 1, 500)
		}, nil},
		{"a re-read after a compaction", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.compact()
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, nil},
		{"a re-read in a later turn", func(s *session) {
			s.read("/home/dev/shop/src/cart.ts", 6000)
			s.prompt()
			s.read("/home/dev/shop/src/cart.ts", 6000)
		}, nil},
		{"a small re-read is not worth a card", func(s *session) {
			s.read("/home/dev/shop/.nvmrc", 10)
			s.read("/home/dev/shop/.nvmrc", 10)
		}, nil},
		{"a harness that stubs unchanged re-reads", func(s *session) {
			s.read("/home/dev/shop/src/a.ts", 6000)
			s.call("Read", map[string]any{"file_path": "/home/dev/shop/src/a.ts"}, "unchanged", result(map[string]any{"type": "file_unchanged"}))
			s.read("/home/dev/shop/src/b.ts", 6000)
			s.read("/home/dev/shop/src/b.ts", 6000)
		}, nil},
		{"cat of a file read twice", func(s *session) {
			s.bash("cat src/config.json", 4000)
			s.bash("cat src/config.json", 4000)
		}, []string{"reading:reread-config-json-" + hashOf("src/config.json")}},

		{"the whole suite after each one-file edit", func(s *session) {
			s.bash("npx jest", 9000, lasting(60_000))
			s.read("/home/dev/shop/src/auth.test.ts", 2000)
			s.edit("/home/dev/shop/src/auth.ts", "a", "b")
			s.bash("npx jest", 9000, lasting(60_000))
			s.edit("/home/dev/shop/src/auth.ts", "b", "c")
			s.bash("npx jest", 9000, lasting(60_000))
		}, []string{"execution:whole-suite-npx-jest"}},
		{"one whole run after an edit ends a phase", func(s *session) {
			s.bash("npx jest", 9000)
			s.read("/home/dev/shop/src/auth.test.ts", 2000)
			s.edit("/home/dev/shop/src/auth.ts", "a", "b")
			s.bash("npx jest", 9000)
		}, nil},
		{"the whole suite after edits to two files", func(s *session) {
			s.bash("npx jest", 9000)
			s.read("/home/dev/shop/src/auth.test.ts", 2000)
			for range 2 {
				s.edit("/home/dev/shop/src/auth.ts", "a", "b")
				s.edit("/home/dev/shop/src/session.ts", "a", "b")
				s.bash("npx jest", 9000)
			}
		}, nil},
		{"the whole suite when no test of the file is known", func(s *session) {
			s.bash("npx jest", 9000)
			for range 2 {
				s.edit("/home/dev/shop/src/auth.ts", "a", "b")
				s.bash("npx jest", 9000)
			}
		}, nil},
		{"the edited file is the test", func(s *session) {
			s.bash("npx vitest run", 9000)
			for range 2 {
				s.edit("/home/dev/shop/src/cart.test.ts", "a", "b")
				s.bash("npx vitest run", 9000)
			}
		}, []string{"execution:whole-suite-npx-vitest-run"}},
		{"the narrow run is no whole suite", func(s *session) {
			s.bash("npx jest", 9000)
			for range 2 {
				s.edit("/home/dev/shop/src/cart.test.ts", "a", "b")
				s.bash("npx jest src/cart.test.ts", 900)
			}
		}, nil},
		{"go test ./... after each edit of a package with a known test", func(s *session) {
			s.bash("go test ./...", 3000)
			s.read("/home/dev/shop/pkg/cart/cart_test.go", 2000)
			for range 2 {
				s.edit("/home/dev/shop/pkg/cart/cart.go", "a", "b")
				s.bash("go test ./...", 3000)
			}
		}, []string{"execution:whole-suite-go-test"}},
		{"a script runner the session never narrowed", func(s *session) {
			s.bash("npm test", 9000)
			s.read("/home/dev/shop/src/auth.test.ts", 2000)
			for range 2 {
				s.edit("/home/dev/shop/src/auth.ts", "a", "b")
				s.bash("npm test", 9000)
			}
		}, nil},
		{"a script runner the session narrowed itself", func(s *session) {
			s.bash("npm test -- src/auth.test.ts", 900)
			for range 2 {
				s.edit("/home/dev/shop/src/auth.ts", "a", "b")
				s.bash("npm test", 9000)
			}
		}, []string{"execution:whole-suite-npm-test"}},
		{"the check before each commit", func(s *session) {
			s.bash("npx jest", 9000)
			s.read("/home/dev/shop/src/auth.test.ts", 2000)
			for range 2 {
				s.edit("/home/dev/shop/src/auth.ts", "a", "b")
				s.bash("npx jest", 9000)
				s.bash("git add -A && git commit -m wip", 100)
			}
		}, nil},
		{"a config edit makes the whole suite right", func(s *session) {
			s.bash("npx jest", 9000)
			for range 2 {
				s.edit("/home/dev/shop/jest.config.json", "a", "b")
				s.bash("npx jest", 9000)
			}
		}, nil},

		{"find dumps a listing", func(s *session) {
			s.bash("find . -type f", 26_700)
		}, []string{"reading:unfiltered-find-type-f"}},
		{"find bounded", func(s *session) {
			s.bash("find . -maxdepth 2 -type f", 26_700)
		}, nil},
		{"find filtered by a pipe", func(s *session) {
			s.bash("find . -type f | grep -v node_modules", 26_700)
		}, nil},
		{"find with a small output", func(s *session) {
			s.bash("find . -type f", 2000)
		}, nil},
		{"pip install log", func(s *session) {
			s.bash("pip install -r requirements.txt", 19_500)
		}, []string{"reading:unfiltered-pip-install-r-require-" + hashOf("pip install -r requirements.txt")}},
		{"pip install quiet", func(s *session) {
			s.bash("pip install -q -r requirements.txt", 19_500)
		}, nil},
		{"tree, ls -R, docker logs, git log", func(s *session) {
			s.bash("tree src", 12_000)
			s.bash("ls -laR", 12_000)
			s.bash("docker compose logs api", 40_000)
			s.bash("git log -p", 30_000)
			s.bash("tree -L 2 src", 12_000)
			s.bash("docker compose logs --tail 200 api", 40_000)
			s.bash("git log --oneline -n 30", 12_000)
		}, []string{"reading:unfiltered-tree-src", "reading:unfiltered-ls-lar", "reading:unfiltered-docker-compose-logs-api", "reading:unfiltered-git-log-p"}},
		{"a long test output is not a listing", func(s *session) {
			s.bash("npx jest", 40_000)
		}, nil},

		{"the same Grep twice", func(s *session) {
			s.grep("useCart", "src", nil, 3000)
			s.read("/home/dev/shop/src/a.ts", 100)
			s.grep("useCart", "src", nil, 3000)
		}, []string{"reading:repeated-search-usecart-src-" + hashOf("Grep\tGrep\t"+`{"path":"src","pattern":"useCart"}`)}},
		{"two Greps of one pattern in two modes", func(s *session) {
			s.grep("useCart", "src", map[string]any{"output_mode": "files_with_matches"}, 3000)
			s.grep("useCart", "src", map[string]any{"output_mode": "content"}, 3000)
		}, nil},
		{"the same rg after an edit", func(s *session) {
			s.bash("rg -n useCart src", 3000)
			s.edit("/home/dev/shop/src/a.ts", "useCart", "useBasket")
			s.bash("rg -n useCart src", 3000)
		}, nil},
		{"the same rg twice", func(s *session) {
			s.bash("rg -n useCart src", 3000)
			s.bash("rg -n useCart src", 3000)
		}, []string{"reading:repeated-search-rg-n-usecart-src-" + hashOf("Bash\tBash\tsearch:rg -n useCart src")}},
	}
}

// hashOf is the hash idOf ends a slug with.
func hashOf(text string) string {
	id := idOf("x", "p", "", text)
	return id[strings.LastIndexByte(id, '-')+1:]
}

// TestFindingShape: every finding is one a judge could have returned — an id the judge's validator
// accepts, a kind starting "Claude keeps ", a fix within the caps, a signature a cited row carries,
// evidence of rows the session holds — and its cost is what its waste rows took.
func TestFindingShape(t *testing.T) {
	s := newSession()
	for range 3 {
		s.bash("npm run build", 900, lasting(30_000))
	}
	s.read("/home/dev/shop/src/a-very-long-directory-name/with/more/levels/cart.ts", 6000)
	s.read("/home/dev/shop/src/a-very-long-directory-name/with/more/levels/cart.ts", 6000)
	s.bash("find / -name '*.json' -type f -not -path '*/node_modules/*' -not -path '*/proc/*' -newer package.json", 30_000)
	fs := s.detect()
	if len(fs) != 3 {
		t.Fatalf("findings %q, want 3", ids(fs))
	}
	for _, f := range fs {
		if !idShape(f.ID) || !state.IsCategory(string(f.Category)) || !strings.HasPrefix(f.ID, string(f.Category)+":") {
			t.Errorf("id %q (category %q) is not a judge's shape", f.ID, f.Category)
		}
		if !strings.HasPrefix(f.Kind, "Claude keeps ") || jstext.Len16(f.Kind) > state.KindMax {
			t.Errorf("kind %q", f.Kind)
		}
		if f.Alternative == "" || jstext.Len16(f.Alternative) > state.AlternativeMax || f.Why == "" {
			t.Errorf("alternative %q, why %q", f.Alternative, f.Why)
		}
		if f.Confidence < 0.5 || f.Confidence > 1 {
			t.Errorf("confidence %v", f.Confidence)
		}
		carried := false
		for _, id := range f.Evidence {
			r := s.rowOf(id)
			if r == nil {
				t.Fatalf("%s cites %s, which the session does not hold", f.ID, id)
			}
			carried = carried || (r.Tool == f.Signature.Tool && r.Key == f.Signature.Key)
		}
		if !carried {
			t.Errorf("%s: no cited row carries its signature %+v", f.ID, f.Signature)
		}
	}
	build := fs[0]
	if build.Cost != (Cost{Ms: 60_000, Chars: 1800}) || len(build.Evidence) != 3 {
		t.Errorf("rerun cost %+v evidence %v: want the two re-runs' 60000 ms and 1800 chars, the three runs cited", build.Cost, build.Evidence)
	}
	if want := "`npm run build` ran 3 times in turn 1 (r1, r2, r3)"; !strings.HasPrefix(build.Why, want) {
		t.Errorf("why %q, want it to start %q", build.Why, want)
	}
	if fs[2].Cost != (Cost{Chars: 30_000}) {
		t.Errorf("output cost %+v: want its chars and no time", fs[2].Cost)
	}
}

// idShape is the judge's id rule (state/judge: ^[a-z-]+:[a-z0-9-]{1,40}$).
func idShape(id string) bool {
	cat, slug, ok := strings.Cut(id, ":")
	if !ok || cat == "" || len(slug) == 0 || len(slug) > 40 {
		return false
	}
	for _, c := range cat {
		if !(c == '-' || (c >= 'a' && c <= 'z')) {
			return false
		}
	}
	for _, c := range slug {
		if !(c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// TestRunCostsNothingWithoutRows: no rows, no findings, no panic.
func TestRunCostsNothingWithoutRows(t *testing.T) {
	if got := Run(Session{}); len(got) != 0 {
		t.Errorf("findings %v of an empty session", got)
	}
	if got := Repeats(Session{}); len(got) != 0 {
		t.Errorf("repeats %v of an empty session", got)
	}
}

// TestFindingsGolden: one session with one waste of each kind, its findings as JSON, so the words a
// person reads are reviewed where they change.
func TestFindingsGolden(t *testing.T) {
	s := newSession()
	s.bash("npx jest", 9000, lasting(60_000))
	s.read("/home/dev/shop/src/auth.test.ts", 2000)
	s.edit("/home/dev/shop/src/auth.ts", "a", "b")
	s.bash("npx jest", 9000, lasting(61_000))
	s.prompt()
	s.edit("/home/dev/shop/src/auth.ts", "b", "c")
	s.bash("npx jest", 9000, lasting(59_000))
	s.bash("npm run build", 1200, lasting(20_000))
	s.bash("npm run build", 1200, lasting(21_000))
	s.prompt()
	s.read("/home/dev/shop/src/cart.ts", 8000)
	s.grep("useCart", "src", map[string]any{"output_mode": "content"}, 3000)
	s.read("/home/dev/shop/src/cart.ts", 8000)
	s.grep("useCart", "src", map[string]any{"output_mode": "content"}, 3000)
	s.bash("find . -type f", 26_700)
	s.bash("pip install -r requirements.txt", 19_500, lasting(40_000))
	out, err := json.MarshalIndent(s.detect(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "findings.json", string(out)+"\n")
}

// TestLastSameIsTheWalkBack: lastSame's one pass finds, for every row, the row a walk back from it finds —
// the last one of the same turn and loop that ran, with the same tool and key, that ok passes — on
// ledgers of mixed turns, loops, keys, refusals and failures.
func TestLastSameIsTheWalkBack(t *testing.T) {
	walkBack := func(rows []state.Row, i int, ok func(k int) bool) int {
		for k := i - 1; k >= 0; k-- {
			if rows[k].Turn != rows[i].Turn {
				return -1
			}
			if rows[k].Agent == rows[i].Agent && ran(&rows[k]) && rows[k].Tool == rows[i].Tool && rows[k].Key == rows[i].Key && ok(k) {
				return k
			}
		}
		return -1
	}
	seed := uint64(7)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	for round := range 50 {
		rows := make([]state.Row, 300)
		turn := 1
		for i := range rows {
			if next(20) == 0 {
				turn++
			}
			rows[i] = state.Row{ID: "r" + string(rune('a'+i%26)), Seq: i + 1, Turn: turn, Tool: []string{"Bash", "Read", "Grep"}[next(3)],
				Key: []string{"a", "b", "c", ""}[next(4)], Agent: []string{"main", "agent-1"}[next(2)]}
			switch next(6) {
			case 0:
				rows[i].Flags = []string{"denied"}
			case 1:
				rows[i].Flags = []string{"err"}
			}
		}
		tl := newTimeline(&Session{Rows: rows})
		notErr := func(k int) bool { return !rows[k].HasFlag("err") }
		for _, ok := range []func(int) bool{always, notErr} {
			got := tl.lastSame(tl.toolKey, ok)
			for i := range rows {
				want := walkBack(rows, i, ok)
				if rows[i].Key == "" {
					want = -1
				}
				if got[i] != want {
					t.Fatalf("round %d row %d: lastSame %d, the walk back %d", round, i, got[i], want)
				}
			}
		}
	}
}

// TestChangeCleanPaths: a change compares its paths as cleanPath spells them, and never rewrites the
// paths it reports.
func TestChangeCleanPaths(t *testing.T) {
	c := change{paths: []string{"/w/src/a.ts", "./src/b.ts", "src//c.ts"}}.withClean()
	if !slices.Equal(c.paths, []string{"/w/src/a.ts", "./src/b.ts", "src//c.ts"}) || !slices.Equal(c.clean, []string{"/w/src/a.ts", "src/b.ts", "src/c.ts"}) {
		t.Fatalf("paths %q, clean %q", c.paths, c.clean)
	}
	for _, p := range []string{"/w/src/b.ts", "src/c.ts", "a.ts"} {
		if !c.touches(cleanPath(p)) {
			t.Errorf("the change does not touch %q", p)
		}
	}
	if c.touches("/w/src/d.ts") {
		t.Error("the change touches d.ts")
	}
}
