package agentlog

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state/intake"
)

// Transcript is one session read back for an offline audit: its messages in the shape a host sends them
// on session.start (so state.AdoptRows rebuilds the same rows), each tool call's real duration and each
// turn's usage.
type Transcript struct {
	Harness   string // the harness's id (harness.ID)
	SessionID string
	Cwd       string
	Model     string // the model of the last call
	Messages  []intake.SessionMessage
	// Durations is tool_use_id → milliseconds from the tool_use line to its tool_result line.
	Durations map[string]int64
	Turns     []TurnUsage
	// Compactions is the turns (1-based) in which the context was compacted: what a compaction dropped
	// is read again after it, which is no waste.
	Compactions []int
	Warnings    []string
}

// TurnUsage is one turn: from a typed prompt to the next.
type TurnUsage struct {
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
	Calls  int       `json:"calls"`
	Tokens Tokens    `json:"tokens"` // billed over the turn's API calls
	// Context is the window after the turn: the last call's whole prompt plus its output.
	Context int64 `json:"context"`
}

// Assembly is a Transcript being read, in the order its log holds it: the messages in their wire form
// (the results joined to their calls at the end), the tool calls' times and outcomes, and the API calls
// with the turn each bills. History builds on it for the harness packages that read their logs through
// its calls; Claude Code's and Codex's readers, whose logs say more (a message of several blocks, a
// result's raw object, a turn opened without a prompt), write its fields themselves.
type Assembly struct {
	T Transcript
	// Uses is a tool call's id → the time of the line that made it.
	Uses map[string]time.Time
	// Outcomes is a tool call's id → what it returned.
	Outcomes map[string]Outcome
	Wire     []WireMessage
	// Calls are the API calls, each with the turn it bills (-1: a call before any prompt, billed to none).
	Calls []TurnCall
}

// NewAssembly starts the transcript of one session.
func NewAssembly(harness, sessionID string) *Assembly {
	return &Assembly{
		T:        Transcript{Harness: harness, SessionID: sessionID, Durations: map[string]int64{}},
		Uses:     map[string]time.Time{},
		Outcomes: map[string]Outcome{},
	}
}

// Outcome is what a tool call returned, as its log holds it.
type Outcome struct {
	Result  json.RawMessage // the result's object, when the log keeps one
	Text    *string
	IsError bool
	At      time.Time
}

// WireMessage is an intake.SessionMessage in its wire form, assembled before the results are known.
type WireMessage struct {
	Role     string    `json:"role"`
	Text     string    `json:"text"`
	ToolUses []WireUse `json:"toolUses,omitempty"`
	// Results marks a user message that carried tool results (not a typed prompt): ResultRef of each.
	Results []json.RawMessage `json:"toolResults,omitempty"`
}

// WireUse is one tool call of a WireMessage.
type WireUse struct {
	Tool      string          `json:"tool"`
	ToolUseID string          `json:"tool_use_id"`
	Input     json.RawMessage `json:"input,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Text      *string         `json:"text,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
}

// TurnCall is one API call and the turn (an index into Turns) it bills.
type TurnCall struct {
	Turn  int
	At    time.Time
	Usage prices.Usage
}

// ResultRef is a WireMessage's reference to the result of the tool call id.
func ResultRef(id string) json.RawMessage {
	return json.RawMessage(`{"tool_use_id":` + quoteJSON(id) + `}`)
}

// Compacted notes a compaction in the turn under way (the first, before any prompt).
func (a *Assembly) Compacted() {
	turn := max(len(a.T.Turns), 1)
	if n := len(a.T.Compactions); n == 0 || a.T.Compactions[n-1] != turn {
		a.T.Compactions = append(a.T.Compactions, turn)
	}
}

// ResultText is a tool result's content as text: the string, or its text blocks joined; nil when there
// is none.
func ResultText(c json.RawMessage) *string {
	if len(c) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		return &s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(c, &blocks) != nil {
		return nil
	}
	s = ""
	for _, b := range blocks {
		// Claude Code's blocks are "text"; a Codex tool output's are "input_text".
		if b.Type == "text" || b.Type == "input_text" {
			s += b.Text
		}
	}
	return &s
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Finish gives each tool call its outcome, decodes the messages through state's own wire decoding, and
// sums each turn's calls. The transcript is a.T.
func (a *Assembly) Finish() error {
	for i := range a.Wire {
		for j := range a.Wire[i].ToolUses {
			u := &a.Wire[i].ToolUses[j]
			if o, ok := a.Outcomes[u.ToolUseID]; ok {
				u.Result, u.Text, u.IsError = o.Result, o.Text, o.IsError
				if len(u.Result) == 0 && u.Text != nil {
					u.Result = json.RawMessage("null") // the transcript kept the text only
				}
			}
		}
	}
	raw, err := json.Marshal(a.Wire)
	if err != nil {
		return fmt.Errorf("messages: %w", err)
	}
	if err := json.Unmarshal(raw, &a.T.Messages); err != nil {
		return fmt.Errorf("messages: %w", err)
	}
	for _, c := range a.Calls {
		if c.Turn < 0 {
			continue // a call before any typed prompt (a resumed session's first line): no turn to bill
		}
		t := &a.T.Turns[c.Turn]
		u := c.Usage
		t.Calls++
		t.Tokens.Add(TokensOf(u))
		if !c.At.Before(t.End) {
			t.End = c.At
			t.Context = u.Prompt() + u.Output
		}
	}
	return nil
}
