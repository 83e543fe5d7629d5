package impact

import "time"

// The constants of the linking rules. Each names, in its comment, the upper-case
// name protocol.md's rules table uses, so the two can be read side by side.
const (
	// DefaultDays is DAYS: sessions whose end lies within this many days
	// before now are analysed. A month covers a billing cycle.
	DefaultDays = 30

	// PreMin is PRE_MIN: a commit made shortly before a session's recorded
	// start still belongs to it, because harnesses record the start late
	// (after start-up) while an agent may commit right away.
	PreMin = 5 * time.Minute

	// PostMin is POST_MIN: people commit an agent's work after the session
	// ended (review, then commit), so the window stays open this long.
	PostMin = 30 * time.Minute

	// MinCalls is MIN_CALLS: sessions with at least this many API calls did
	// real work; they win over tiny automated helpers (claude -p, swarm
	// helpers with one call) that overlap them in time.
	MinCalls = 10

	// OutsideP is OUTSIDE_P: the link_p of a trailer link won by a session
	// started outside the repository (L-outside). The trailer proves the
	// harness, but only L-assign picks the session, so it is not certain.
	OutsideP = 0.9

	// MinP is MIN_P: a commit_link decision below this probability drops the
	// pending record; at or above it the record is kept with link_p = p.
	MinP = 0.5

	// LinkOption is LINK_OPTION: the option of the commit_link decision
	// whose probability becomes link_p.
	LinkOption = "yes"

	// ScanMargin is SCAN_MARGIN: git's --since filters on the committer
	// date, which can precede the author date (rebases on a machine with a
	// skewed clock) and stops walking at old commits, so the scan starts this
	// much earlier and filters on the author date itself.
	ScanMargin = 24 * time.Hour

	// DecisionPoint is the decide point impact answers to.
	DecisionPoint = "commit_link"
)

// WriteTools is WRITE_TOOLS: tool names (compared case-insensitively) that can
// edit files or run `git commit`. Shell tools count because agents commit
// through them. The list covers the harnesses that carry trailers:
// Claude Code (Edit, Write, MultiEdit, NotebookEdit, Bash), Codex
// (apply_patch, shell, local_shell, exec_command, write_stdin), Gemini and
// Qwen Code (write_file, replace, run_shell_command), Cursor (edit_file,
// search_replace, run_terminal_cmd, delete_file), Copilot
// (insert_edit_into_file, replace_string_in_file, create_file,
// run_in_terminal), Amp and opencode (edit, write, bash, patch, create_file,
// undo_edit). decide's EDIT_TOOLS is narrower on purpose: here the signal
// only orders sessions, it proves nothing.
var WriteTools = []string{
	"Edit", "Write", "MultiEdit", "NotebookEdit", "Bash",
	"apply_patch", "shell", "local_shell", "exec_command", "write_stdin",
	"write_file", "replace", "run_shell_command",
	"edit_file", "search_replace", "run_terminal_cmd", "delete_file",
	"insert_edit_into_file", "replace_string_in_file", "create_file", "run_in_terminal",
	"patch", "undo_edit",
}

// DefaultBranches is DEFAULT_BRANCHES: the refs tried in order to find the
// branch a commit must be reachable from to count as "on the default
// branch". origin/HEAD names the remote's choice; main and master are the
// usual local names; HEAD is the last resort (the checked-out branch).
var DefaultBranches = []string{"refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master", "HEAD"}
