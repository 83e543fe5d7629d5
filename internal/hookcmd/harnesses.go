package hookcmd

import (
	"os"
	"path/filepath"
	"strconv"
)

// What the hook binary knows of each harness whose hooks saverd answers, without linking its package:
// saverd-hook links nothing of the daemon (cmd/saverd-hook/deps_test.go), and harness/claude and
// harness/codex bring the log readers with them. harness/all's TestHookTableIsTheHarnesses holds each
// entry to its harness package (the same block answer, settings files and client), and every harness
// package to an entry.

// liveHarness is one harness as the hook binary meets it.
type liveHarness struct {
	// suppress: its block answer takes hookSpecificOutput.suppressOriginalPrompt, so the person reads the
	// reason without the typed line again.
	suppress bool
	// settings are the files it reads hooks from for the project proj (the plugin's hooks stand down
	// while saverd's own are in one of them).
	settings func(proj string) []string
	// client is its client's program, which runs the hooks.
	client string
	// replyMargin is how many of the terminal's columns ($COLUMNS, which the client sets for every hook)
	// its UI keeps around a UserPromptSubmit's block reason: the reason is wrapped at COLUMNS less this,
	// so the pane a `/saver` line answers is drawn that wide (replyWidth). 0: not measured, and the
	// daemon draws the pane at its own width.
	replyMargin int
}

// harnesses are the live harnesses by id.
var harnesses = map[string]liveHarness{
	// Claude Code 2.1.328 wraps a block reason at COLUMNS-10 (80 columns: 70, 100: 90, 150: 140).
	"claude-code": {suppress: true, client: "claude", replyMargin: 10, settings: func(proj string) []string {
		return []string{filepath.Join(userDir("CLAUDE_CONFIG_DIR", ".claude"), "settings.json"),
			filepath.Join(proj, ".claude", "settings.json"), filepath.Join(proj, ".claude", "settings.local.json")}
	}},
	"codex": {client: "codex", settings: func(proj string) []string {
		return []string{filepath.Join(userDir("CODEX_HOME", ".codex"), "hooks.json"), filepath.Join(proj, ".codex", "hooks.json")}
	}},
}

// replyWidth is how many columns harness shows a hook's answer in, from the terminal's width in
// $COLUMNS; 0 when it cannot tell (no $COLUMNS, or the harness's margins were never measured).
func replyWidth(harness string) int {
	h, ok := harnesses[harness]
	if !ok || h.replyMargin == 0 {
		return 0
	}
	return max(0, columns()-h.replyMargin)
}

// columns is the terminal's width the client put in $COLUMNS; 0 when it put none.
func columns() int {
	n, err := strconv.Atoi(os.Getenv("COLUMNS"))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// DefaultHarness is the harness of a hook line that names none (harness.Hooked).
const DefaultHarness = "claude-code"

// expansionHarness is the harness UserPromptExpansion is an event of: Claude Code alone has it.
const expansionHarness = "claude-code"

// userDir is the directory $env names, else dot under the home directory.
func userDir(env, dot string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, dot)
}

// SettingsFiles are the files harness reads hooks from for the project this hook runs in ($CLAUDE_PROJECT_DIR,
// else the working directory); none for a harness the table does not hold.
func SettingsFiles(harness string) []string {
	h, ok := harnesses[harness]
	if !ok {
		return nil
	}
	proj := os.Getenv("CLAUDE_PROJECT_DIR")
	if proj == "" {
		proj, _ = os.Getwd()
	}
	return h.settings(proj)
}

// Clients are the live harnesses' client programs by harness id.
func Clients() map[string]string {
	out := make(map[string]string, len(harnesses))
	for id, h := range harnesses {
		out[id] = h.client
	}
	return out
}
