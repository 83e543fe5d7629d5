package detect

import (
	"slices"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// OutputMin is the characters of one command's output from which the output detector names it: about
// 2,500 tokens, more than anyone reads of a listing or an installer's log.
const OutputMin = 10_000

// cutter is a command that prints more than anyone reads, and the flag that cuts it.
type cutter struct {
	what string // what it printed: a listing, an install log, a log
	fix  string // the flag, said as a fix
}

// cutterOf is the cutter of a command's words when it ran without the flag that cuts it.
func cutterOf(w []string) (cutter, bool) {
	if len(w) == 0 {
		return cutter{}, false
	}
	head, args := baseName(w[0]), w[1:]
	verb := ""
	if len(args) > 0 {
		verb = args[0]
	}
	switch {
	case head == "find":
		if !hasFlag(args, "-maxdepth", "-quit") {
			return cutter{"file listing", "bound it with `-maxdepth 2` and a `-name` pattern, or pipe it through `head -50`"}, true
		}
	case head == "tree":
		if !hasFlag(args, "-L") {
			return cutter{"tree", "limit its depth with `-L 2`"}, true
		}
	case head == "ls":
		if shortFlag(args, 'R') || hasFlag(args, "--recursive") {
			return cutter{"recursive listing", "use `tree -L 2` or `find . -maxdepth 2` instead of `ls -R`"}, true
		}
	case head == "docker" || head == "podman" || head == "docker-compose":
		if slices.Contains(args, "logs") && !hasFlag(args, "--tail", "-n", "--since") {
			return cutter{"log", "add `--tail 100` (and grep it for the error)"}, true
		}
	case head == "kubectl":
		if verb == "logs" && !hasFlag(args, "--tail", "--since", "--since-time") {
			return cutter{"log", "add `--tail=100` (and grep it for the error)"}, true
		}
	case head == "journalctl":
		if !hasFlag(args, "-n", "--lines", "--since", "-e", "--pager-end") {
			return cutter{"log", "add `-n 100 --no-pager`"}, true
		}
	case head == "git":
		if gitVerb(w) == "log" && !hasFlag(args, "-n", "--max-count", "--since", "--after", "-1") && !countFlag(args) {
			return cutter{"history", "add `--oneline -n 20`"}, true
		}
	case head == "gh":
		if slices.Contains(args, "--log") {
			return cutter{"log", "use `--log-failed` instead of `--log`"}, true
		}
	}
	return installer(head, verb, w)
}

// countFlag: a `-<digits>` word, git log's own count (`git log -20`).
func countFlag(args []string) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && digitsOnly(a[1:]) {
			return true
		}
	}
	return false
}

// installer is the cutter of a package installer run without its quiet flag.
func installer(head, verb string, w []string) (cutter, bool) {
	var flag string
	switch {
	case head == "npm" && (verb == "install" || verb == "i" || verb == "ci" || verb == "add" || verb == "update"):
		flag = "`--loglevel=error`"
	case head == "pnpm" && (verb == "install" || verb == "i" || verb == "add" || verb == "update"):
		flag = "`--loglevel=error`"
	case (head == "yarn" || head == "bun") && (verb == "install" || verb == "add" || (head == "yarn" && len(w) == 1)):
		flag = "`--silent`"
	case (head == "pip" || head == "pip3") && verb == "install", head == "uv" && verb == "pip",
		head == "poetry" && verb == "install", head == "composer" && verb == "install":
		flag = "`-q`"
	case head == "python" || head == "python3":
		if len(w) > 3 && w[1] == "-m" && w[2] == "pip" && w[3] == "install" {
			flag = "`-q`"
		}
	case (head == "apt-get" || head == "apt") && verb == "install":
		flag = "`-qq`"
	case (head == "brew" || head == "gem" || head == "bundle") && verb == "install":
		flag = "`--quiet`"
	case head == "cargo" && (verb == "build" || verb == "fetch" || verb == "install"):
		flag = "`-q`"
	}
	if flag == "" || hasFlag(w[1:], "-q", "-qq", "--quiet", "--silent", "-s", "--loglevel", "--reporter", "--no-progress") || shortFlag(w[1:], 'q') {
		return cutter{}, false
	}
	return cutter{"install log", "add " + flag + " so that only errors print"}, true
}

// output finds a command whose output of OutputMin characters or more a flag would have cut, when the
// command did not filter it already (a pipe or a redirect after it).
func output(t *timeline) []Finding {
	type found struct {
		cut  cutter
		rows []int
	}
	by := map[string]*found{}
	var order []string
	for i := range t.rows {
		r := &t.rows[i]
		if r.Tool != "Bash" || r.ID == "" || r.Chars < OutputMin || !ran(r) {
			continue
		}
		for _, st := range stages(t.command(r)) {
			cut, ok := cutterOf(bare(st.words))
			if !ok {
				continue
			}
			if !st.piped {
				f := by[r.Key]
				if f == nil {
					f = &found{cut: cut}
					by[r.Key] = f
					order = append(order, r.Key)
				}
				f.rows = append(f.rows, i)
			}
			break
		}
	}
	out := make([]Finding, 0, len(order))
	for _, k := range order {
		f := by[k]
		r := &t.rows[f.rows[0]]
		cmd := keyText(r.Key)
		cost := Cost{Chars: t.costOf(f.rows).Chars}
		confidence := 0.75
		if len(f.rows) > 1 {
			confidence = 0.85
		}
		why := code(cmd, 60) + " put " + jstext.Kilo(float64(cost.Chars)) + " chars of " + f.cut.what + " into the context in " +
			calls(len(f.rows)) + " (" + t.handles(f.rows) + ", " + t.turnsOf(f.rows) + ") with nothing filtering it; " +
			"more than anyone reads of it, and a flag cuts it at the source."
		fnd := t.finding(Output, idOf("reading", "unfiltered", cmd, ""), "reading",
			"Claude keeps dumping the whole "+f.cut.what+" of "+code(cmd, 60)+" into the context",
			why,
			"When you run "+code(headOf(cmd), 30)+", "+f.cut.fix+"; read more only if you need it.",
			confidence, &state.Signature{Tool: r.Tool, Key: r.Key}, f.rows, f.rows)
		fnd.Cost = cost
		out = append(out, fnd)
	}
	return out
}

// headOf is a command's first stage's first two words (`docker logs`, `npm install`), or its first
// when the second is a flag or a path.
func headOf(cmd string) string {
	st := stages(cmd)
	if len(st) == 0 {
		return cmd
	}
	w := bare(st[0].words)
	switch {
	case len(w) == 0:
		return cmd
	case len(w) > 1 && w[1] != "" && w[1][0] != '-' && w[1][0] != '.' && w[1][0] != '/':
		return w[0] + " " + w[1]
	}
	return w[0]
}
