package detect

import (
	"path"
	"slices"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// What a row may have changed on disk. A detector fires only when nothing between two calls could have
// changed what the second one sees, so everything it cannot rule out counts as a change: a command it
// cannot classify, an installer, a formatter, a git command that moves files, an agent whose edits are
// not known, an MCP tool, a question to the person (who may edit while answering).

// change is the files a row changed, or unknown: it may have changed any.
type change struct {
	paths   []string
	unknown bool
	// clean is paths as cleanPath spells them, made once (withClean) for touches.
	clean []string
}

func (c change) some() bool { return c.unknown || len(c.paths) > 0 }

// withClean is c with its paths' clean spellings, which touches compares: the paths themselves when
// they are clean already, as nearly every path a tool reports is.
func (c change) withClean() change {
	c.clean = c.paths
	for i, p := range c.paths {
		if q := cleanPath(p); q != p {
			if &c.clean[0] == &c.paths[0] { // still the paths themselves: copied before the first write
				c.clean = slices.Clone(c.paths)
			}
			c.clean[i] = q
		}
	}
	return c
}

// touches reports whether the change may have touched p, a clean path (cleanPath): unknown, or a path
// naming the same file — the same path, one a suffix of the other at a slash (a relative and an absolute
// spelling), or the same base name when either is only a name.
func (c change) touches(p string) bool {
	if c.unknown {
		return true
	}
	for _, q := range c.clean {
		if sameClean(p, q) {
			return true
		}
	}
	return false
}

func samePath(a, b string) bool { return sameClean(cleanPath(a), cleanPath(b)) }

// sameClean is samePath of two clean paths.
func sameClean(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return len(a) > len(b) && a[len(a)-len(b)-1] == '/' && a[len(a)-len(b):] == b
}

// cleanPath is p as path.Clean spells it, without "./" in front; a path that is clean already (nearly
// every one a tool reports) is returned as it is, with no copy.
func cleanPath(p string) string {
	if strings.HasPrefix(p, "./") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") || strings.Contains(p, "/.") {
		p = path.Clean(p)
	}
	return strings.TrimPrefix(p, "./")
}

// editTools are the tools that write the files their rows name.
var editTools = map[string]bool{"Edit": true, "MultiEdit": true, "Write": true, "NotebookEdit": true, "apply_patch": true}

// quietTools read or plan and change no file.
var quietTools = map[string]bool{
	"Read": true, "Grep": true, "Glob": true, "LS": true, "TodoWrite": true, "TodoRead": true, "WebFetch": true,
	"WebSearch": true, "ExitPlanMode": true, "EnterPlanMode": true, "BashOutput": true, "ToolSearch": true,
	"update_plan": true, "view_image": true, "web_search": true,
}

// isEdit reports whether a row is an edit: an edit tool, or a shell call of Codex's apply_patch.
func isEdit(r *state.Row, command string) bool {
	if editTools[r.Tool] {
		return true
	}
	if r.Tool != "Bash" {
		return false
	}
	for _, st := range stages(command) {
		if w := bare(st.words); len(w) > 0 && (w[0] == "apply_patch" || w[0] == "applypatch") {
			return true
		}
	}
	return false
}

// changeOf is what one row may have changed.
func changeOf(r *state.Row, c Call) change {
	if !ran(r) {
		return change{}
	}
	switch {
	case editTools[r.Tool]:
		if r.HasFlag("err") {
			return change{} // a failed edit wrote nothing
		}
		if len(r.Paths) > 0 {
			return change{paths: r.Paths}
		}
		if r.Key != "" && r.Tool != "apply_patch" {
			return change{paths: []string{r.Key}}
		}
		return change{unknown: true}
	case r.Tool == "Bash":
		if len(r.Paths) > 0 {
			return change{paths: r.Paths}
		}
		cmd := c.Command
		if cmd == "" {
			cmd = keyText(r.Key)
		}
		if shellQuiet(cmd) {
			return change{}
		}
		return change{unknown: true}
	case r.Tool == "Agent" || r.Tool == "Task":
		if r.Launch != nil && r.Launch.Edits != nil && *r.Launch.Edits == 0 {
			return change{}
		}
		return change{unknown: true}
	case quietTools[r.Tool]:
		return change{}
	}
	return change{unknown: true}
}

// shellQuiet reports whether a shell command changes no source file, as far as its words tell, stage by
// stage (each classified as the ledger classifies commands): a test, typecheck, build (what it writes
// is its output, not what it reads), read or search; a lint or format that only checks; a git or gh
// command that only looks; a few commands that only print. `sed -i`, `find -delete` or `-exec`, and
// anything written through a redirect or tee change files.
func shellQuiet(command string) bool {
	st := stages(command)
	for _, s := range st {
		if !stageQuiet(s) {
			return false
		}
	}
	return len(st) > 0
}

func stageQuiet(s stage) bool {
	w := bare(s.words)
	if len(w) == 0 {
		return true
	}
	if redirectsToFile(s.text) {
		return false
	}
	switch intake.ClassOf(s.text) {
	case state.ClassTest:
		// A run that updates snapshots or golden files writes them.
		return !hasFlag(w, "-u", "--updateSnapshot", "--update-snapshots", "-update", "--update", "--snapshot-update")
	case state.ClassTypecheck, state.ClassBuild:
		return true
	case state.ClassRead, state.ClassSearch:
		if baseName(w[0]) == "sed" && (hasFlag(w, "--in-place") || shortFlag(w[1:], 'i')) {
			return false
		}
		return !hasFlag(w, "-delete", "-exec", "-execdir", "-ok", "-fprint")
	case state.ClassLint:
		return !hasFlag(w, "--fix", "--write", "-w")
	case state.ClassFormat:
		return hasFlag(w, "--check", "--list-different", "-l", "-d", "--diff")
	case state.ClassGit:
		return gitLooks(w)
	}
	return printsOnly[baseName(w[0])] || w[0] == "cd"
}

// printsOnly are commands that print and change nothing.
var printsOnly = map[string]bool{
	"pwd": true, "echo": true, "printf": true, "wc": true, "which": true, "whoami": true, "date": true, "env": true,
	"printenv": true, "du": true, "df": true, "stat": true, "file": true, "uname": true, "true": true, "sleep": true,
	"jq": true, "sort": true, "uniq": true, "cut": true, "diff": true, "type": true, "hostname": true, "id": true,
}

// redirectsToFile reports whether a `>` sends output to a file rather than a descriptor or /dev/null.
func redirectsToFile(command string) bool {
	for i := 0; i < len(command); i++ {
		if command[i] != '>' {
			continue
		}
		rest := strings.TrimLeft(command[i+1:], "> ")
		if strings.HasPrefix(rest, "&") || strings.HasPrefix(rest, "/dev/") {
			continue
		}
		return true
	}
	return false
}

// gitLooks: a git or gh command that changes no file of the work tree.
func gitLooks(w []string) bool {
	if baseName(w[0]) == "gh" {
		return true
	}
	switch gitVerb(w) {
	case "", "status", "diff", "log", "show", "blame", "rev-parse", "ls-files", "branch", "remote", "fetch",
		"describe", "shortlog", "grep", "config", "add", "commit", "tag", "reflog", "ls-tree", "cat-file":
		return true
	}
	return false
}
