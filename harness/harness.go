// Package harness names the coding agents saverd reads (their ids, as session records and commit
// trailers carry them) and says what a harness package provides to the log readers: where its logs are,
// how to find them, how to read one into session records (agentlog.Reader) and one session into the
// history `saverd audit` replays. One package per harness implements Logs (harness/gemini,
// harness/opencode, harness/qwen); harness/all lists them. Claude Code's and Codex's readers still live
// in agentlog and are wired beside the list.
package harness

import (
	"slices"

	"github.com/saverd/saverd/agentlog"
)

// ID is a harness's id as session records, `--harness` and impact's trailer rules name it.
type ID string

// The harnesses saverd reads. Claude Code's and Codex's equal agentlog.HarnessClaude and HarnessCodex.
// Qwen Code's is the id its commit trailer (`Co-authored-by: … <qwen-coder@alibabacloud.com>`) links to in
// impact, and OpenCode's likewise; Gemini CLI writes no trailer, and is named as ccusage names it.
const (
	ClaudeCode ID = "claude-code"
	Codex      ID = "codex"
	Gemini     ID = "gemini"
	OpenCode   ID = "opencode"
	Qwen       ID = "qwen-code"
)

// IDs is every harness saverd reads the logs of, in the order they are listed to a person.
func IDs() []ID { return []ID{ClaudeCode, Codex, Gemini, OpenCode, Qwen} }

// Known reports whether id is a harness saverd reads the logs of.
func Known(id string) bool { return slices.Contains(IDs(), ID(id)) }

// Parse is the harness a person named: its id, or `qwen` for qwen-code (as ccusage names it). No other
// short name is taken: `claude` for claude-code is the typo impact warns of.
func Parse(name string) (ID, bool) {
	if name == "qwen" {
		return Qwen, true
	}
	if slices.Contains(IDs(), ID(name)) {
		return ID(name), true
	}
	return "", false
}

// Logs is what a harness package provides to the log readers (`saverd sessions`, `audit`, `impact`,
// `blocks`, `report`). Every file it reads goes through agentlog.OpenLines (a JSON-lines log, bounded per
// line, streamed) or internal/safefile (a whole file, regular files only, to a size cap).
type Logs interface {
	// ID names the harness; Name is how a person calls it ("Gemini CLI").
	ID() ID
	Name() string
	// DirFlag is the command-line flag that names its directories in place of DefaultDirs ("gemini-dir");
	// DirHelp says what such a directory is and where the default comes from, for the flag's help.
	DirFlag() string
	DirHelp() string
	// DefaultDirs is where it writes its logs when no flag names a directory, its environment variables
	// applied; a directory that does not exist is no error (the harness is simply not installed).
	DefaultDirs() []string
	// Discover lists the logs under dirs, each an agentlog.File whose Reader reads it into session
	// records; a directory it cannot read is a warning, and the rest is still listed.
	Discover(dirs []string) ([]agentlog.File, []string)
	// Reader reads a log it Owns into session records, as the Files it lists are read.
	agentlog.Reader
	// History reads one session of the log at path (a File's Path) for `saverd audit`.
	History(path, sessionID string, opt agentlog.Options) (agentlog.Transcript, error)
	// Owns reports whether the file at path, named on the command line, is one of its logs.
	Owns(path string) bool
}
