package detect

import (
	"strconv"
	"strings"

	"github.com/saverd/saverd/state"
)

// SuiteMinRuns is how many whole-suite runs after a one-file edit make a habit: one is the check a
// phase ends with, which the fix itself recommends.
const SuiteMinRuns = 2

// suiteHit is one whole-suite run after an edit to one file whose test could have run alone.
type suiteHit struct {
	row    int
	edited string
	narrow string
}

// suite finds the whole test suite run after an edit to one file, SuiteMinRuns times or more, when the
// runner runs one file's test (a package script only when the session ran it narrowed itself) and the
// session names that file's test. Not counted: the loop's first test run (the baseline), a run after
// more than one file changed or after a command that may have changed any, and the run a commit follows.
func suite(t *timeline) []Finding {
	known := t.knownTests()
	byKey := map[string][]suiteHit{}
	var order []string
	for i := range t.rows {
		r := &t.rows[i]
		if r.Tool != "Bash" || r.Cls != state.ClassTest || r.ID == "" || !ran(r) || r.HasFlag("bg") {
			continue
		}
		st := stages(keyText(r.Key))
		if len(st) == 0 {
			continue
		}
		tr, ok := parseTest(st[0].words)
		if !ok || !tr.whole() {
			continue
		}
		sep, runnable := t.narrowsScript(&tr)
		if !runnable {
			continue
		}
		edited, ok := t.oneEditBefore(i)
		if !ok || !hasExt(edited, tr.language()) || t.committedAfter(i) {
			continue
		}
		test := testOf(edited, known, &tr)
		if test == "" {
			continue
		}
		if _, seen := byKey[r.Key]; !seen {
			order = append(order, r.Key)
		}
		byKey[r.Key] = append(byKey[r.Key], suiteHit{row: i, edited: edited, narrow: tr.narrowed(test, t.s.Cwd, sep)})
	}
	var out []Finding
	for _, k := range order {
		hits := byKey[k]
		if len(hits) < SuiteMinRuns {
			continue
		}
		idx := make([]int, len(hits))
		after := make([]string, len(hits))
		for i, h := range hits {
			idx[i] = h.row
			after[i] = "r" + strconv.Itoa(t.rows[h.row].Seq) + " after " + code(relTo(h.edited, t.s.Cwd), 50)
		}
		r := &t.rows[hits[0].row]
		cmd := keyText(r.Key)
		cost := t.costOf(idx)
		confidence := 0.8
		if len(hits) > 2 {
			confidence = 0.85
		}
		why := "The whole suite (" + code(cmd, 50) + ") ran " + times(len(hits)) + " right after an edit to one file (" +
			strings.Join(after, ", ") + "), though " + code(hits[0].narrow, 70) + " runs that file's test alone; the whole runs took " + took(cost) + "."
		f := t.finding(Suite, idOf("execution", "whole-suite", cmd, ""), "execution",
			"Claude keeps running the whole "+code(cmd, 60)+" suite after a one-file edit",
			why,
			"After a one-file edit run only that file's test (like "+code(hits[0].narrow, 80)+"), then the whole suite once when the phase is done.",
			confidence, &state.Signature{Tool: r.Tool, Key: r.Key}, idx, idx)
		f.Proposal = &state.Proposal{Kind: state.ArtifactClaudeMD, Title: "Targeted tests",
			Body: "After a one-file edit, run only that file's test; run the whole suite once when the phase is done."}
		out = append(out, f)
	}
	return out
}

// narrowsScript says whether a run's runner can run one file's test: a named runner can; a package
// script (npm test) can only when the session ran the same script with a file itself, whose form
// (after `--` or not) it then follows.
func (t *timeline) narrowsScript(tr *testRun) (sep, ok bool) {
	if !tr.script {
		return false, true
	}
	for i := range t.rows {
		r := &t.rows[i]
		if r.Tool != "Bash" || r.Cls != state.ClassTest {
			continue
		}
		st := stages(keyText(r.Key))
		if len(st) == 0 {
			continue
		}
		other, ok := parseTest(st[0].words)
		if ok && strings.Join(other.prefix, " ") == strings.Join(tr.prefix, " ") && !other.whole() && len(other.args) > 0 && !other.filter {
			return other.sep, true
		}
	}
	return false, false
}

// oneEditBefore is the one file edited since the loop's previous test run, false when there was no
// previous run (this is the baseline), no edit or more than one file, or a change the rows cannot place.
func (t *timeline) oneEditBefore(i int) (string, bool) {
	r := &t.rows[i]
	prev := -1
	for k := i - 1; k >= 0; k-- {
		if p := &t.rows[k]; p.Agent == r.Agent && p.Tool == "Bash" && p.Cls == state.ClassTest && ran(p) {
			prev = k
			break
		}
	}
	if prev < 0 {
		return "", false
	}
	var edited []string
	for k := prev + 1; k < i; k++ {
		c := t.changes[k]
		if c.unknown {
			return "", false
		}
		for _, p := range c.paths {
			if !containsPath(edited, p) {
				edited = append(edited, p)
			}
		}
	}
	if len(edited) != 1 {
		return "", false
	}
	return edited[0], true
}

func containsPath(list []string, p string) bool {
	for _, q := range list {
		if samePath(p, q) {
			return true
		}
	}
	return false
}

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// committedAfter reports whether the loop commits after run i before anything changes: the check a
// commit waits for is not a habit.
func (t *timeline) committedAfter(i int) bool {
	r := &t.rows[i]
	for k := i + 1; k < len(t.rows); k++ {
		n := &t.rows[k]
		if n.Agent != r.Agent {
			continue
		}
		if n.Tool == "Bash" {
			for _, st := range stages(t.command(n)) {
				if w := bare(st.words); len(w) > 1 && baseName(w[0]) == "git" && gitVerb(w) == "commit" {
					return true
				}
			}
		}
		if t.changes[k].some() {
			return false
		}
	}
	return false
}

// gitVerb is a git command's subcommand: its first word that is no flag (a flag's value, as in
// `git -C dir status`, is passed over).
func gitVerb(w []string) string {
	for i := 1; i < len(w); i++ {
		switch {
		case w[i] == "-C" || w[i] == "-c":
			i++
		case strings.HasPrefix(w[i], "-"):
		default:
			return w[i]
		}
	}
	return ""
}

// knownTests is every test file the session's rows name: read, edited or written, or an operand of a
// test run or a `cat`.
func (t *timeline) knownTests() []knownTest {
	var out []knownTest
	seen := map[string]bool{}
	add := func(p string) {
		if c := cleanPath(p); p != "" && !seen[c] {
			seen[c] = true
			if isTestFile(p) {
				out = append(out, knownTestOf(p))
			}
		}
	}
	for i := range t.rows {
		r := &t.rows[i]
		for _, p := range r.Paths {
			add(p)
		}
		switch {
		case r.Tool == "Read":
			if at := strings.LastIndexByte(r.Key, ':'); at > 0 {
				add(r.Key[:at])
			}
		case editTools[r.Tool] && r.Tool != "apply_patch":
			add(r.Key)
		case r.Tool == "Bash" && r.Cls == state.ClassTest:
			if st := stages(keyText(r.Key)); len(st) > 0 {
				if tr, ok := parseTest(st[0].words); ok {
					for _, a := range tr.args {
						add(a)
					}
				}
			}
		case r.Tool == "Bash" && r.Cls == state.ClassRead:
			add(t.readPath(r))
		}
	}
	return out
}
