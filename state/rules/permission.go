package rules

import (
	"regexp"
	"strings"
)

// A settings-allow rule is one key press from being in force, so saverd never proposes one that lets
// the agent run code it has just downloaded, or that widens a tool to everything: `Bash(curl … | sh)`
// and `Bash(*)` are no savings a person should grant in passing.

var (
	// pipedToShell: output piped into a shell or an interpreter, or a command substitution fed to one.
	pipedToShell = regexp.MustCompile(`(?i)\|\s*(sudo\s+)?(ba|z|da|k|fi)?sh\b|\|\s*(sudo\s+)?(python[0-9.]*|node|deno|bun|perl|ruby|php|pwsh|powershell|iex)\b|(ba|z)?sh\s+(-c\s+)?["']?[<$]\(|\beval\b|\bsource\s+<\(`)
	// downloads: a fetch whose output could be run.
	downloads = regexp.MustCompile(`(?i)\b(curl|wget|fetch|aria2c|invoke-webrequest|iwr|invoke-restmethod|irm)\b`)
	// runsPackage: a runner that fetches a package and runs it (`npx x`, `uvx x`), or any interpreter,
	// followed by nothing more specific than a wildcard.
	runsAnything = regexp.MustCompile(`(?i)^(sudo\s+)?(npx|bunx|pnpx|uvx|pipx\s+run|pnpm\s+dlx|yarn\s+dlx|npm\s+exec|bun\s+x|(ba|z|da|fi)?sh|python[0-9.]*|node|deno|perl|ruby|php|pwsh|powershell|bash\s+-c|sh\s+-c)\s*(:\s*)?\*?$`)
)

// RiskyPermission is why a permission rule such as `Bash(bun test:*)` must not be proposed, or "" when it
// may be: it widens a tool to everything, runs what it downloads, or runs any package or script at all.
func RiskyPermission(rule string) string {
	open := strings.IndexByte(rule, '(')
	if open < 0 || !strings.HasSuffix(rule, ")") {
		return "" // a bare tool name is the judge's shape check's business
	}
	spec := strings.TrimSpace(rule[open+1 : len(rule)-1])
	if strings.Trim(spec, "*:/. \t") == "" {
		return "it allows the tool everything"
	}
	tool := strings.TrimSpace(rule[:open])
	if tool != "Bash" {
		return ""
	}
	body := strings.TrimSuffix(strings.TrimSuffix(spec, "*"), ":")
	switch {
	case pipedToShell.MatchString(spec):
		return "it runs code piped into a shell or an interpreter"
	case downloads.MatchString(spec) && strings.ContainsAny(spec, "|$`<>;&"):
		return "it downloads and runs what it fetched"
	case runsAnything.MatchString(strings.TrimSpace(body)) || runsAnything.MatchString(spec):
		return "it runs any package or script at all"
	}
	return ""
}
