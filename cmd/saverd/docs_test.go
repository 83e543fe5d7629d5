package main

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The docs name a command's flags as the command has them: every `saverd COMMAND … --flag` in README.md,
// protocol.md and docs/performance.md (a code span, a code block's line and the lines that go on with it, a span in a section
// of protocol.md headed `saverd COMMAND` or in README's paragraph on serve's flags, a span opening with a
// command's name: `sessions --by day`) names a flag COMMAND has; and where the docs list a command's flags — a bracketed synopsis of protocol.md ([--flag …]), a
// code block of protocol.md, README's paragraph on serve's flags — they list every one. The help a person
// reads is drawn from the commands' values; this holds the docs to the same values.

// docFiles are the docs whose commands are held to the commands' flags.
var docFiles = []string{"README.md", "protocol.md", "docs/performance.md"}

// docUse is a place where a doc names a command's flags.
type docUse struct {
	where    string          // file:line
	cmd      string          // the command named
	flags    map[string]bool // the flags named there
	complete bool            // the docs list every flag of cmd there
	from, to int             // the lines a section or paragraph covers, [from, to); 0, 0 for one place
}

func (u *docUse) add(flags []string) {
	for _, f := range flags {
		u.flags[f] = true
	}
}

// commandFlags is each command's flags, from its value (for the hook client's commands, which parse
// their own arguments, from the synopsis of their help).
func commandFlags() map[string][]string {
	out := map[string][]string{}
	for _, c := range program().All() {
		if c.Flags != nil {
			out[c.Name] = c.Flags.Names()
			continue
		}
		out[c.Name] = nil
		for _, line := range strings.Split(c.Help, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "saverd "+c.Name+" "); ok {
				out[c.Name] = flagsIn(rest)
			}
		}
	}
	return out
}

var (
	flagRE = regexp.MustCompile("(?:^|[\\s\\[(,`])--([a-z][a-z0-9-]*)")
	// useRE finds an invocation: saverd (or saverd-hook, or a path ending in either) and its first word.
	useRE     = regexp.MustCompile("(?:^|[\\s/(`])saverd(?:-hook)?[ \\t]+(\\S+)")
	headingRE = regexp.MustCompile("^#+ `saverd ([a-z]+)")
)

func flagsIn(s string) []string {
	var out []string
	for _, m := range flagRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// useOf is the command text names and the flags after it; "" when it names none (saverd's own words in
// a code span, `saverd idle`, or a path, cmd/saverd).
func useOf(text string, cmds map[string][]string) (string, []string) {
	m := useRE.FindStringSubmatchIndex(text)
	if m == nil {
		return "", nil
	}
	word, rest := text[m[2]:m[3]], text[m[3]:]
	if strings.HasPrefix(word, "-") {
		word, rest = "serve", text[m[2]:] // the default command
	}
	if _, ok := cmds[word]; !ok {
		return "", nil
	}
	if i := strings.Index(rest, "&&"); i >= 0 {
		rest = rest[:i] // the next command of a shell line
	}
	return word, flagsIn(rest)
}

// docUses reads one file's places that name a command's flags.
func docUses(t *testing.T, file string, cmds map[string][]string) []*docUse {
	t.Helper()
	data, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var uses, regions []*docUse
	newUse := func(i int, cmd string) *docUse {
		u := &docUse{where: fmt.Sprintf("%s:%d", file, i+1), cmd: cmd, flags: map[string]bool{}}
		uses = append(uses, u)
		return u
	}
	// Code blocks: a line naming a command starts a use; a synopsis' next line ([…]), a flag's own line
	// (--flag …) and a comment's next line (# …) go on with it. In protocol.md a block lists every flag of
	// the commands it names.
	fence, prose := false, make([]string, len(lines))
	var block map[string]*docUse
	var last *docUse
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			fence, block, last = !fence, map[string]*docUse{}, nil
			continue
		}
		if !fence {
			prose[i] = line
			continue
		}
		if cmd, fs := useOf(line, cmds); cmd != "" {
			if last = block[cmd]; last == nil {
				last = newUse(i, cmd)
				last.complete = file == "protocol.md"
				block[cmd] = last
			}
			last.add(fs)
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case last != nil && (strings.HasPrefix(trimmed, "[") || strings.HasPrefix(line, "--") || strings.HasPrefix(trimmed, "#")):
			last.add(flagsIn(line))
		case trimmed != "" && !strings.HasPrefix(line, " "):
			last = nil
		}
	}
	// Sections of protocol.md headed `saverd COMMAND`, to the next heading; README's paragraph on
	// serve's flags, to the next blank line.
	for i, line := range prose {
		if m := headingRE.FindStringSubmatch(line); m != nil && file == "protocol.md" {
			u := &docUse{where: fmt.Sprintf("%s:%d", file, i+1), cmd: m[1], flags: map[string]bool{}, from: i, to: len(lines)}
			for j := i + 1; j < len(lines); j++ {
				if strings.HasPrefix(prose[j], "#") {
					u.to = j
					break
				}
			}
			regions = append(regions, u)
		}
		if strings.HasPrefix(line, "Flags of `saverd serve`") {
			u := &docUse{where: fmt.Sprintf("%s:%d", file, i+1), cmd: "serve", flags: map[string]bool{}, complete: true, from: i, to: len(lines)}
			for j := i + 1; j < len(lines); j++ {
				if strings.TrimSpace(prose[j]) == "" {
					u.to = j
					break
				}
			}
			regions = append(regions, u)
		}
	}
	// Code spans, which may run across lines: one naming a command is a use of its own (in protocol.md a
	// bracketed one lists every flag); one naming none names flags of its section's or paragraph's command.
	text := strings.Join(prose, "\n")
	for _, sp := range codeSpans(text) {
		span := strings.ReplaceAll(text[sp[0]:sp[1]], "\n", " ")
		line := strings.Count(text[:sp[0]], "\n")
		if cmd, fs := useOf(span, cmds); cmd != "" {
			u := newUse(line, cmd)
			u.complete = file == "protocol.md" && strings.Contains(span, "[--")
			u.add(fs)
			continue
		}
		// A span that names no command is its section's or paragraph's when it is flags alone (--since
		// 7d); a span opening with a command's name (sessions --by day) is that command's; anything else
		// (claude -p --resume …) is another program's.
		first, _, _ := strings.Cut(strings.TrimSpace(span), " ")
		if _, ok := cmds[first]; ok && strings.Contains(span, " --") {
			u := newUse(line, first)
			u.add(flagsIn(span))
			continue
		}
		if !strings.HasPrefix(first, "--") {
			continue
		}
		for _, r := range regions {
			if r.from <= line && line < r.to {
				r.add(flagsIn(span))
			}
		}
	}
	return append(uses, regions...)
}

// codeSpans are the code spans of text as Markdown reads them, each [start, end) of its content: a run of
// backticks opens one and the next run of the same length closes it; a run that nothing closes is
// text, and no span runs past a blank line.
func codeSpans(text string) [][2]int {
	var out [][2]int
	run := func(i int) int { // the length of the run of backticks at i
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		return n
	}
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := run(i)
		end := -1
		for j := i + n; j < len(text); {
			if strings.HasPrefix(text[j:], "\n\n") {
				break
			}
			if text[j] != '`' {
				j++
				continue
			}
			if m := run(j); m == n {
				end = j
				break
			} else {
				j += m
			}
		}
		if end < 0 {
			i += n // no closing run: the backticks are text
			continue
		}
		out = append(out, [2]int{i + n, end})
		i = end + n
	}
	return out
}

func TestDocsNameTheCommandsFlags(t *testing.T) {
	cmds := commandFlags()
	for _, file := range docFiles {
		for _, u := range docUses(t, file, cmds) {
			has := cmds[u.cmd]
			for _, f := range slices.Sorted(maps.Keys(u.flags)) {
				if !slices.Contains(has, f) {
					t.Errorf("%s: saverd %s has no --%s (its flags: %s)", u.where, u.cmd, f, strings.Join(has, " "))
				}
			}
			if !u.complete {
				continue
			}
			for _, f := range has {
				if !u.flags[f] {
					t.Errorf("%s: the flags of saverd %s listed here lack --%s", u.where, u.cmd, f)
				}
			}
		}
	}
}

// TestDocUses: the reading of the docs finds what it is meant to, so a doc that names no flag of a
// command cannot pass for one that names only right ones.
func TestDocUses(t *testing.T) {
	cmds := commandFlags()
	found := map[string]bool{}
	for _, file := range docFiles {
		for _, u := range docUses(t, file, cmds) {
			for f := range u.flags {
				found[u.cmd+" --"+f] = true
			}
		}
	}
	for _, want := range []string{"serve --record", "serve --idle-evict", "replay --show", "sessions --by", "sessions --qwen-dir",
		"blocks --active", "report --sessions-log", "audit --judge-timeout", "impact --yes", "impact --gemini-dir", "install --scope",
		"uninstall --dry-run", "doctor --dir", "hook --harness", "hook --plugin"} {
		if !found[want] {
			t.Errorf("the docs' reading found no saverd %s", want)
		}
	}
}
