// Package saverline recognises a prompt that is a saverd command, in every spelling a person can type
// it: `/saver …` (Claude Code, a command file of that name), `/saver:saver …` (the command of the
// plugin named saver: Claude Code namespaces a plugin's commands), `$saver …` and `$saver:saver …`
// (Codex 0.169.0 has no custom slash commands; a skill named saver is typed with `$`, a plugin's skill
// as `$saver:saver`). A line typed with leading spaces (` /saver …`, which Codex's TUI sends as a
// prompt instead of rejecting it as an unknown command) counts too. It is pure and imports nothing, so
// the hook binary can tell a command from a prompt without the daemon.
package saverline

import "strings"

// The names saverd's own texts tell a person to type, by where they type it: the command file `saverd
// install` writes for Claude Code (and a host's pane), and the skill it writes for Codex.
const (
	Slash  = "/saver"
	Dollar = "$saver"
)

// spellings are the command's names, longest first so that `/saver:saver` is not read as `/saver`
// followed by `:saver`.
var spellings = []string{Slash + ":saver", Dollar + ":saver", Slash, Dollar}

// Args reads a prompt typed as a saverd command: ok, and what follows the command's name, trimmed.
// The name must end the prompt or be followed by white space (`/savers` is not the command).
func Args(prompt string) (args string, ok bool) {
	_, args, ok = Parse(prompt)
	return args, ok
}

// Parse is Args with the spelling the prompt typed (`/saver`, `/saver:saver`, `$saver`, `$saver:saver`).
func Parse(prompt string) (name, args string, ok bool) {
	t := strings.TrimLeft(prompt, " \t\r\n")
	for _, name := range spellings {
		rest, found := strings.CutPrefix(t, name)
		if !found {
			continue
		}
		if rest != "" && !isSpace(rest[0]) {
			return "", "", false
		}
		return name, strings.TrimSpace(rest), true
	}
	return "", "", false
}

// Plugin is the spelling of saverd's plugin's command where name is the harness's own: the plugin is
// named saver, and a harness names a plugin's command `<plugin>:<command>` (`/saver:saver`, `$saver:saver`).
func Plugin(name string) string { return name + ":saver" }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
