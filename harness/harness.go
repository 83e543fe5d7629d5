// Package harness names the coding agents saverd reads (their ids, as session records and commit
// trailers carry them) and says what a harness package provides: to the log readers (Logs: where its logs
// are, how to find them, how to read one into session records and one session into the history `saverd
// audit` replays), and, for a harness whose hooks saverd answers, to the daemon, the fork and install
// (Live). One package per harness implements them (harness/claude and harness/codex are Live;
// harness/gemini, harness/opencode and harness/qwen are Logs); harness/all lists them. Everything else
// asks the harness where it varies, and never branches on its id.
package harness

import (
	"slices"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// ID is a harness's id as session records, `--harness` and impact's trailer rules name it.
type ID string

// The harnesses saverd reads. Qwen Code's is the id its commit trailer (`Co-authored-by: … <qwen-coder@alibabacloud.com>`) links to in
// impact, and OpenCode's likewise; Gemini CLI writes no trailer, and is named as ccusage names it.
const (
	ClaudeCode ID = "claude-code"
	Codex      ID = "codex"
	Gemini     ID = "gemini"
	OpenCode   ID = "opencode"
	Qwen       ID = "qwen-code"
)

// Hooked is the harness of a hook that names none: saverd-hook's --harness, and the hook method's
// params.harness, default to it (protocol.md, "hook").
const Hooked = ClaudeCode

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

// FileSessions is a harness whose every log file is one session, named by the file (Claude Code's
// transcripts, Codex's rollouts): its sessions are listed, and a file a person names is audited, without
// reading it first.
type FileSessions interface {
	// SessionOf is the id of the session the log at path holds.
	SessionOf(path string) string
}

// Live is a harness whose hooks saverd answers (Claude Code, Codex): besides its logs, what the daemon
// asks of it while a session runs and when it ends. Each harness package asserts that its value is one
// (var _ harness.Live = Harness{}), so a piece it lacks is a compile error.
type Live interface {
	Logs
	FileSessions
	// Record reads the session whose log the hooks named (transcript_path), for the daemon's sessions log,
	// with what the forks saverd ran for it spent as its judge spend (agentlog.ReadSession).
	Record(path string, forks map[string]agentlog.ForkRecord, opt agentlog.Options) (agentlog.Record, []string, error)

	// The hooks' reading of a session's log, which counts a call as Record (and `saverd sessions`) does,
	// through the hook's bounds (bridge.EachLine), so a turn's cost on the pane is what the session
	// reports for its calls. History (Logs) gives the rows a daemon that joins late adopts.

	// TurnUsage adds up the main loop's API calls the log at path records from the cursor from on (the
	// turn's lines; a line of from.Last counts only for what it adds), and the cursor after the last
	// whole line read (a line still being written is left for the next read).
	TurnUsage(path string, from bridge.Cursor) (bridge.Usage, bridge.Cursor, error)
	// AgentUsage adds up a subagent's own log (SubagentStop's agent_transcript_path).
	AgentUsage(path string) (bridge.Usage, error)
	// HeldTexts is those of texts the log at path carries since its last compaction: what the context
	// holds of them now.
	HeldTexts(path string, texts []string) []string
	// CallAgent is the running subagent (of agents) that made the tool call toolUseID when its hook did
	// not say, found in the subagents' own logs; "" for the main loop.
	CallAgent(transcript, sessionID string, agents []string, toolUseID string) string

	// What saverd says there, in its words.

	// Command is how a person types saverd's command in it (internal/saverline): the pane, the toasts and
	// the replies name the commands so.
	Command() string
	// Agent is what the person calls the agent: the judge's template and the detectors say "Claude keeps
	// …", and a kind is shown with this name in its place (a Codex session's cards say "Codex keeps …").
	Agent() string
	// BlockPrompt is UserPromptSubmit's answer to a saverd command typed there: the line never reaches
	// the model, and the person reads reason.
	BlockPrompt(reason string) *bridge.Answer
	// Rules is the rules the pane offers (rules.Propose) as this harness's files take them: the file its
	// lasting rules go to, and the kinds it reads.
	Rules(st *state.State, arts []rules.Artifact) []rules.Artifact

	// Client is its command-line client as a judge's fork runs it when no host forks: the argv, the
	// configured command that stands in for it, and what it prints read (forkcmd).
	forkcmd.Client

	// Target is how `saverd install`, `uninstall` and `doctor` meet it: its settings files at each
	// scope, saverd's hooks and the file that makes the command known there, what doctor checks, and the
	// hooks saverd's plugin declares for it (install).
	install.Target
}
