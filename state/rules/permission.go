package rules

import (
	"slices"
	"strings"
)

// A settings-allow rule is one key press from being in force for every later session in the project,
// and its text comes from the judge, which reads whatever the session read. So a permission is written
// only when it has one of a few shapes that cannot run code the project does not hold or name a path
// outside the project; any other rule is refused, and the pattern's CLAUDE.md line is offered instead.
// The shapes (protocol.md, "Permissions saverd writes"):
//
//	Bash(<runner> [<name>] [<operand> …])        one exact command
//	Bash(<runner> [<name>] [<operand> …]:*)      that command and whatever arguments follow it
//	Bash(<runner> [<name>] [<operand> …] *)      the same, in the newer wildcard spelling
//	Read(<pattern>)                              reading files under a project-relative pattern
//
// <runner> is a program and its subcommand from Runners (`npm test`, `go test`, `pytest`); <name> is the
// script, task or target a runner that runs one by name is given (`npm run lint`); an operand is a
// project-relative path or test pattern that is no flag. Every word is made of letters, digits and
// `_ . / @ + , -` only, so no shell metacharacter, quote, substitution or variable gets in.

// Runner is one command the allow-list lets a Bash permission start with: Program and then one of Subs
// (words, "" for none). Named subcommands take the script, task or target to run next.
type Runner struct {
	Program string
	Subs    []string
	Named   []string
}

// Runners are the test, build, lint and type-check runners a permission may name. Each one's run
// executes the project's own code and configuration; none is an interpreter given code on its
// command line, a shell, a package fetcher (npx, dlx, uvx) or a tool that runs another command
// (env, sudo, xargs, find -exec, git -c).
var Runners = []Runner{
	{Program: "npm", Subs: []string{"test", "t"}, Named: []string{"run", "run-script"}},
	{Program: "pnpm", Subs: []string{"test", "t", "lint", "build", "typecheck"}, Named: []string{"run"}},
	{Program: "yarn", Subs: []string{"test", "lint", "build", "typecheck"}, Named: []string{"run"}},
	{Program: "bun", Subs: []string{"test"}, Named: []string{"run"}},
	{Program: "deno", Subs: []string{"test", "lint", "check", "fmt"}, Named: []string{"task"}},
	{Program: "go", Subs: []string{"test", "build", "vet"}},
	{Program: "cargo", Subs: []string{"test", "build", "check", "clippy", "fmt", "bench"}},
	{Program: "make", Named: []string{""}},
	{Program: "gradle", Subs: []string{"test", "build", "check"}},
	{Program: "./gradlew", Subs: []string{"test", "build", "check"}},
	{Program: "mvn", Subs: []string{"test", "verify", "compile", "package"}},
	{Program: "./mvnw", Subs: []string{"test", "verify", "compile", "package"}},
	{Program: "dotnet", Subs: []string{"test", "build"}},
	{Program: "swift", Subs: []string{"test", "build"}},
	{Program: "mix", Subs: []string{"test", "compile", "format"}},
	{Program: "python", Subs: []string{"-m pytest", "-m unittest", "-m mypy"}},
	{Program: "python3", Subs: []string{"-m pytest", "-m unittest", "-m mypy"}},
	{Program: "pytest", Subs: []string{""}},
	{Program: "jest", Subs: []string{""}},
	{Program: "vitest", Subs: []string{""}},
	{Program: "mocha", Subs: []string{""}},
	{Program: "tsc", Subs: []string{""}},
	{Program: "eslint", Subs: []string{""}},
	{Program: "prettier", Subs: []string{""}},
	{Program: "mypy", Subs: []string{""}},
	{Program: "ruff", Subs: []string{""}},
	{Program: "flake8", Subs: []string{""}},
	{Program: "pylint", Subs: []string{""}},
	{Program: "rspec", Subs: []string{""}},
	{Program: "phpunit", Subs: []string{""}},
	{Program: "ctest", Subs: []string{""}},
}

// PermissionMax is the longest permission rule written; a runner's command is a few words.
const PermissionMax = 200

// PermissionRefused is why a permission rule such as `Bash(bun test:*)` is not written, or "" when it has
// one of the allowed shapes.
func PermissionRefused(rule string) string {
	if len(rule) > PermissionMax {
		return "it is longer than a permission saverd writes"
	}
	open := strings.IndexByte(rule, '(')
	if open < 0 || !strings.HasSuffix(rule, ")") {
		return "it is not a Tool(specifier) rule"
	}
	tool, spec := rule[:open], rule[open+1:len(rule)-1]
	switch tool {
	case "Bash":
		return bashRefused(spec)
	case "Read":
		return readRefused(spec)
	}
	return "saverd writes only Bash runner and Read permissions, not " + tool
}

// bashRefused: spec is a runner's command, exact or followed by one wildcard.
func bashRefused(spec string) string {
	command := strings.TrimSuffix(spec, ":*")
	if command == spec {
		command = strings.TrimSuffix(spec, " *")
	}
	if !strings.ContainsFunc(command, isWordChar) {
		return "it allows the tool everything"
	}
	words := strings.Split(command, " ")
	for _, w := range words {
		if w == "" {
			return "its command is not single-spaced words"
		}
		if i := strings.IndexFunc(w, func(r rune) bool { return !isWordChar(r) }); i >= 0 {
			return "its command holds " + quoteRune(w[i:]) + ", which a runner's command never needs"
		}
	}
	r := runnerOf(words[0])
	if r == nil {
		return words[0] + " is not a test, build or lint runner saverd allows"
	}
	rest, ok := afterSub(r, words[1:])
	if !ok {
		return words[0] + " runs only " + strings.Join(subsOf(r), ", ") + " here"
	}
	for _, operand := range rest {
		if why := operandRefused(operand); why != "" {
			return why
		}
	}
	return ""
}

func runnerOf(program string) *Runner {
	for i := range Runners {
		if Runners[i].Program == program {
			return &Runners[i]
		}
	}
	return nil
}

// afterSub is the words after the runner's subcommand (and the name a named one takes), ok false when
// words start with none of them.
func afterSub(r *Runner, words []string) (rest []string, ok bool) {
	for _, sub := range r.Subs {
		if rest, ok := cutWords(words, sub); ok {
			return rest, true
		}
	}
	for _, sub := range r.Named {
		if rest, ok := cutWords(words, sub); ok && len(rest) > 0 && isName(rest[0]) {
			return rest[1:], true
		}
	}
	return nil, false
}

// cutWords is words without the leading words of prefix ("" has none).
func cutWords(words []string, prefix string) ([]string, bool) {
	if prefix == "" {
		return words, true
	}
	want := strings.Split(prefix, " ")
	if len(words) < len(want) || !slices.Equal(words[:len(want)], want) {
		return nil, false
	}
	return words[len(want):], true
}

// subsOf names a runner's subcommands for a refusal: `test`, `run <name>`.
func subsOf(r *Runner) []string {
	var out []string
	for _, s := range r.Subs {
		if s != "" {
			out = append(out, s)
		}
	}
	for _, s := range r.Named {
		out = append(out, strings.TrimSpace(s+" <name>"))
	}
	return out
}

// isName: a script, task or target name, never a path or a flag (`test:unit`, `type-check`).
func isName(w string) bool {
	if w == "" || !isAlnum(rune(w[0])) {
		return false
	}
	for _, r := range w {
		if !isAlnum(r) && r != ':' && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

// operandRefused: an operand is a path or a test pattern inside the project, never a flag (a flag can
// name a program: `go test -exec`, `make SHELL=…`) or a variable assignment.
func operandRefused(w string) string {
	switch {
	case strings.HasPrefix(w, "-"):
		return "its command passes a flag (" + w + "); only paths and test names may follow the runner"
	case strings.ContainsAny(w, "=:"):
		return "its command passes " + w + ", which is no path or test name"
	}
	return pathRefused(w)
}

// pathRefused: a path stays inside the project: relative, with no `..` step and no hidden file or
// directory (.git, .claude, .env, .github hold hooks, settings, secrets and CI).
func pathRefused(p string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return p + " is not a project-relative path"
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "..":
			return p + " leaves the project"
		case seg != "." && seg != "..." && strings.HasPrefix(seg, "."):
			return p + " names a hidden file or directory"
		}
	}
	return ""
}

// readRefused: spec is a project-relative path or glob that names something narrower than everything.
func readRefused(spec string) string {
	if strings.Trim(spec, "*/. ") == "" {
		return "it allows the tool everything"
	}
	if i := strings.IndexFunc(spec, func(r rune) bool { return (!isWordChar(r) || r == ':' || r == '=') && r != '*' }); i >= 0 {
		return "its path holds " + quoteRune(spec[i:]) + ", which saverd does not write in a path"
	}
	return pathRefused(spec)
}

// isWordChar: the characters a runner's command and a path may hold.
func isWordChar(r rune) bool {
	return isAlnum(r) || strings.ContainsRune("_./@+,-:=", r)
}

func isAlnum(r rune) bool {
	return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
}

// quoteRune is the first character of s, quoted for a refusal.
func quoteRune(s string) string {
	for _, r := range s {
		return "`" + string(r) + "`"
	}
	return "``"
}
