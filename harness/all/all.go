// Package all lists the harness packages whose logs saverd reads. Adding a harness is its package (and
// its test support) and one line here; the commands take their flags, help and readers from this list.
// Only saverd links it: harness/opencode brings an SQLite reader that saverd-hook must never carry.
package all

import (
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/gemini"
	"github.com/saverd/saverd/harness/opencode"
	"github.com/saverd/saverd/harness/qwen"
)

// Logs is the log readers of the harness packages, in the order they are listed to a person. Claude
// Code's and Codex's readers are agentlog's own and are not in it.
func Logs() []harness.Logs {
	return []harness.Logs{gemini.Logs{}, opencode.Logs{}, qwen.Logs{}}
}
