package agentlog

import (
	"encoding/json"
	"time"

	"github.com/saverd/saverd/prices"
)

// History assembles the Transcript `saverd audit` replays from a harness package's log, as its reader
// walks the log in order: typed prompts start turns, tool calls become the rows state.AdoptRows rebuilds
// (each with its result and the time from the call to its result), and each API call is billed to the
// turn it came in. It is the shape every harness's reader gives, so one replay serves them all.
type History struct {
	a        *Assembly
	prompted bool // a turn has started
}

// NewHistory starts the history of one session.
func NewHistory(harness, sessionID string) *History {
	return &History{a: NewAssembly(harness, sessionID)}
}

// SetCwd sets the session's working directory, when the log names one.
func (h *History) SetCwd(cwd string) {
	if cwd != "" {
		h.a.T.Cwd = cwd
	}
}

// Prompt is a prompt the person typed: it starts a turn.
func (h *History) Prompt(text string, at time.Time) {
	if text == "" {
		text = "(empty prompt)" // still a turn: the calls after it are its own
	}
	h.prompted = true
	h.a.Wire = append(h.a.Wire, WireMessage{Role: "user", Text: text})
	h.a.T.Turns = append(h.a.T.Turns, TurnUsage{Start: at, End: at})
}

// ToolUse is a tool call the model made, with its input as the log holds it (an object, or nil). Named
// by the ledger's tool names (Bash with its command, Read with its file_path, …) when the harness's tool
// is one of those, so the rows are keyed and classed as Claude Code's are.
func (h *History) ToolUse(id, tool string, input map[string]any, at time.Time) {
	if !h.prompted {
		h.Prompt("(no prompt recorded for this turn)", at) // the rows still belong to a turn
	}
	use := WireUse{Tool: tool, ToolUseID: id}
	if input != nil {
		if raw, err := json.Marshal(input); err == nil {
			use.Input = raw
		}
	}
	h.a.Wire = append(h.a.Wire, WireMessage{Role: "assistant", ToolUses: []WireUse{use}})
	h.a.Uses[id] = at
}

// ToolResult is what the tool call id returned, as text; the call's duration is the time from its call.
func (h *History) ToolResult(id, text string, isError bool, at time.Time) {
	used, ok := h.a.Uses[id]
	if !ok {
		return // a result of no call this history holds (a rewound or foreign one)
	}
	h.a.Outcomes[id] = Outcome{Text: &text, IsError: isError, At: at}
	if !at.IsZero() && !used.IsZero() {
		h.a.T.Durations[id] = max(0, at.Sub(used).Milliseconds())
	}
	h.a.Wire = append(h.a.Wire, WireMessage{Role: "user", Results: []json.RawMessage{ResultRef(id)}})
}

// Call is one API call of the current turn; a call before any prompt is billed to no turn.
func (h *History) Call(model string, u prices.Usage, at time.Time) {
	if model != "" {
		h.a.T.Model = model
	}
	h.a.Calls = append(h.a.Calls, TurnCall{Turn: len(h.a.T.Turns) - 1, At: at, Usage: u})
}

// Warn adds a warning to the transcript (bad lines, a session cut short).
func (h *History) Warn(w ...string) { h.a.T.Warnings = append(h.a.T.Warnings, w...) }

// Transcript is the history assembled: the messages decoded as a host sends them, each turn's calls and
// tokens summed.
func (h *History) Transcript() (Transcript, error) {
	if err := h.a.Finish(); err != nil {
		return Transcript{}, err
	}
	return h.a.T, nil
}

// LedgerTool is how a harness's tool reads as the ledger's (Claude Code's names, which the rows are keyed
// and classed by): its name there, and its input fields renamed to that tool's (filePath → file_path).
type LedgerTool struct {
	Name string
	Keys map[string]string
}

// Ledger names a harness's tool call as the ledger reads tools, by table; a tool the table does not name
// keeps its name and input.
func Ledger(table map[string]LedgerTool, tool string, input map[string]any) (string, map[string]any) {
	lt, ok := table[tool]
	if !ok {
		return tool, input
	}
	if len(lt.Keys) == 0 || input == nil {
		return lt.Name, input
	}
	out := make(map[string]any, len(input))
	for k, v := range input {
		if to, ok := lt.Keys[k]; ok {
			if _, taken := input[to]; !taken {
				k = to
			}
		}
		out[k] = v
	}
	return lt.Name, out
}
