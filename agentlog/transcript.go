package agentlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state/intake"
)

// Transcript is a Claude Code session or a Codex rollout read back for an offline audit: its messages in the shape a host
// sends them on session.start (so state.AdoptRows rebuilds the same rows), each tool call's real duration
// and each turn's usage.
type Transcript struct {
	Harness   string // HarnessClaude, HarnessCodex, or a harness package's id
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

// transcriptLine is what the audit reads of a line: more than the record reader, since it rebuilds rows.
type transcriptLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	SessionID string `json:"sessionId"`
	RequestID string `json:"requestId"`
	IsMeta    bool   `json:"isMeta"`
	// Subtype compact_boundary marks where Claude Code compacted the context; IsCompactSummary the
	// summary it then sends as a user message, which no person typed.
	Subtype          string `json:"subtype"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	// IsSidechain marks a subagent's line: Claude Code 1.0 wrote a Task agent's lines into the main
	// transcript, where 2.x writes them to subagents/agent-<id>.jsonl.
	IsSidechain bool            `json:"isSidechain"`
	Message     *claudeMessage  `json:"message"`
	ToolResult  json.RawMessage `json:"toolUseResult"`
}

type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // a string or text blocks
	IsError   bool            `json:"is_error"`
}

// toolOutcome is what a tool_result line said of one call.
type toolOutcome struct {
	result  json.RawMessage
	text    *string
	isError bool
	at      time.Time
}

type transcriptReader struct {
	t Transcript
	// summaries and others count the summary lines (Claude Code 1.0's titles of a conversation, by the
	// uuid of its last message) and every other line: a file of summaries alone is no session.
	summaries, others int
	uses              map[string]time.Time // tool_use_id → time of its tool_use line
	outcomes          map[string]toolOutcome
	lastMsg           string // message.id of the assistant message being assembled
	wire              []wireMessage
	calls             map[string]int // call key → index into usage
	usage             []turnCall
}

// wireMessage is a state.SessionMessage in its wire form, assembled before the results are known.
type wireMessage struct {
	Role     string    `json:"role"`
	Text     string    `json:"text"`
	ToolUses []wireUse `json:"toolUses,omitempty"`
	// results marks a user message that carried tool results (not a typed prompt).
	Results []json.RawMessage `json:"toolResults,omitempty"`
}

type wireUse struct {
	Tool      string          `json:"tool"`
	ToolUseID string          `json:"tool_use_id"`
	Input     json.RawMessage `json:"input,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Text      *string         `json:"text,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
}

type turnCall struct {
	turn  int
	at    time.Time
	usage prices.Usage
}

// ReadClaudeTranscript reads the main transcript at path (its subagents are not part of the main loop's
// rows). Bad lines are warnings; only a file that cannot be opened is an error.
func ReadClaudeTranscript(path string, opt Options) (Transcript, error) {
	lr, closeFn, err := openLog(path, opt)
	if err != nil {
		return Transcript{}, err
	}
	defer closeFn()
	r := &transcriptReader{
		t:        Transcript{Harness: HarnessClaude, Durations: map[string]int64{}},
		uses:     map[string]time.Time{},
		outcomes: map[string]toolOutcome{},
		calls:    map[string]int{},
	}
	if err := lr.each(func(line []byte) {
		var l transcriptLine
		if err := json.Unmarshal(line, &l); err != nil {
			lr.malformed(err)
			return
		}
		if err := r.line(&l); err != nil {
			lr.malformed(err)
		}
	}); err != nil {
		return Transcript{}, err
	}
	r.t.Warnings = append(r.t.Warnings, lr.warnings()...)
	if r.summaries > 0 && r.others == 0 {
		return Transcript{}, fmt.Errorf("%s: %w", path, ErrOrphanSummary)
	}
	if err := r.finish(); err != nil {
		return Transcript{}, fmt.Errorf("%s: %w", path, err)
	}
	return r.t, nil
}

// ErrOrphanSummary is a Claude Code file that holds summary lines alone: Claude Code 1.0 wrote the
// titles of conversations into files of their own, each naming the last message (leafUuid) of a
// conversation another session's transcript holds. There is no session in it.
var ErrOrphanSummary = errors.New("an orphan summary file: only summary lines, titles of conversations another session's transcript holds, no session of its own")

func (r *transcriptReader) line(l *transcriptLine) error {
	if r.t.Cwd == "" {
		r.t.Cwd = l.Cwd
	}
	if r.t.SessionID == "" {
		r.t.SessionID = l.SessionID
	}
	if l.Type == "summary" {
		r.summaries++
		return nil
	}
	r.others++
	at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	// A subagent's lines are its own loop's, as its own transcript's are (they are billed to the session,
	// which `saverd sessions` counts): its prompt opens no turn, its calls are not the main loop's rows,
	// and its context is not the main loop's window.
	if l.Message == nil || l.IsSidechain {
		if l.Type == "system" && l.Subtype == "compact_boundary" && !l.IsSidechain {
			r.compacted()
		}
		return nil
	}
	switch l.Type {
	case "user":
		if l.IsCompactSummary {
			return nil
		}
		return r.user(l, at)
	case "assistant":
		return r.assistant(l, at)
	}
	return nil
}

// user is a typed prompt (a string, or text blocks) or the results of tool calls.
func (r *transcriptReader) user(l *transcriptLine, at time.Time) error {
	c := l.Message.Content
	if len(c) > 0 && c[0] == '"' {
		var text string
		if err := json.Unmarshal(c, &text); err != nil {
			return fmt.Errorf("message.content: %w", err)
		}
		r.prompt(text, l.IsMeta, at)
		return nil
	}
	var blocks []contentBlock
	if err := json.Unmarshal(c, &blocks); err != nil {
		return fmt.Errorf("message.content: %w", err)
	}
	msg := wireMessage{Role: "user"}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg.Text += b.Text
		case "tool_result":
			r.outcomes[b.ToolUseID] = toolOutcome{result: l.ToolResult, text: resultText(b.Content), isError: b.IsError, at: at}
			if d, ok := r.uses[b.ToolUseID]; ok && !at.IsZero() && !d.IsZero() {
				r.t.Durations[b.ToolUseID] = max(0, at.Sub(d).Milliseconds())
			}
			msg.Results = append(msg.Results, json.RawMessage(`{"tool_use_id":`+quoteJSON(b.ToolUseID)+`}`))
		}
	}
	if len(msg.Results) > 0 {
		r.wire = append(r.wire, msg)
		r.lastMsg = ""
		return nil
	}
	r.prompt(msg.Text, l.IsMeta, at)
	return nil
}

// prompt starts a turn on a typed prompt; a meta line (a command's output Claude Code adds) is no prompt.
func (r *transcriptReader) prompt(text string, meta bool, at time.Time) {
	r.lastMsg = ""
	if meta || text == "" {
		return
	}
	r.wire = append(r.wire, wireMessage{Role: "user", Text: text})
	r.t.Turns = append(r.t.Turns, TurnUsage{Start: at, End: at})
}

// assistant adds one content block to the message it belongs to (one line per block, same message.id) and
// counts the call once, keeping its largest usage.
func (r *transcriptReader) assistant(l *transcriptLine, at time.Time) error {
	m := l.Message
	if m.ID == "" || m.ID != r.lastMsg {
		r.wire = append(r.wire, wireMessage{Role: "assistant"})
		r.lastMsg = m.ID
	}
	msg := &r.wire[len(r.wire)-1]
	if m.Usage != nil && m.Model != "<synthetic>" {
		r.t.Model = m.Model
		key := m.ID + "\x00" + l.RequestID
		if i, ok := r.calls[key]; !ok || m.ID == "" {
			r.calls[key] = len(r.usage)
			r.usage = append(r.usage, turnCall{turn: len(r.t.Turns) - 1, at: at, usage: m.Usage.usage()})
		} else if u := m.Usage.usage(); usageSize(u) > usageSize(r.usage[i].usage) {
			r.usage[i].usage = u
		}
	}
	if len(m.Content) == 0 || m.Content[0] != '[' {
		return nil
	}
	var blocks []contentBlock
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return fmt.Errorf("message.content: %w", err)
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg.Text += b.Text
		case "tool_use":
			msg.ToolUses = append(msg.ToolUses, wireUse{Tool: b.Name, ToolUseID: b.ID, Input: b.Input})
			r.uses[b.ID] = at
		}
	}
	return nil
}

// compacted notes a compaction in the turn under way (the first, before any prompt).
func (r *transcriptReader) compacted() {
	turn := max(len(r.t.Turns), 1)
	if n := len(r.t.Compactions); n == 0 || r.t.Compactions[n-1] != turn {
		r.t.Compactions = append(r.t.Compactions, turn)
	}
}

// resultText is a tool_result's content as text: the string, or its text blocks joined.
func resultText(c json.RawMessage) *string {
	if len(c) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		return &s
	}
	var blocks []contentBlock
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

// finish gives each tool call its outcome and decodes the messages through state's own wire decoding, and
// sums each turn's calls.
func (r *transcriptReader) finish() error {
	for i := range r.wire {
		for j := range r.wire[i].ToolUses {
			u := &r.wire[i].ToolUses[j]
			if o, ok := r.outcomes[u.ToolUseID]; ok {
				u.Result, u.Text, u.IsError = o.result, o.text, o.isError
				if len(u.Result) == 0 && u.Text != nil {
					u.Result = json.RawMessage("null") // the transcript kept the text only
				}
			}
		}
	}
	raw, err := json.Marshal(r.wire)
	if err != nil {
		return fmt.Errorf("messages: %w", err)
	}
	if err := json.Unmarshal(raw, &r.t.Messages); err != nil {
		return fmt.Errorf("messages: %w", err)
	}
	for _, c := range r.usage {
		if c.turn < 0 {
			continue // a call before any typed prompt (a resumed session's first line): no turn to bill
		}
		t := &r.t.Turns[c.turn]
		u := c.usage
		t.Calls++
		t.Tokens.Add(Tokens{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite5m + u.CacheWrite1h})
		if !c.at.Before(t.End) {
			t.End = c.at
			t.Context = u.Prompt() + u.Output
		}
	}
	return nil
}

// orphanSummaryMax is the most of a file read to tell an orphan summary file: a few titles are a few
// hundred bytes.
const orphanSummaryMax = 1 << 20

// IsOrphanSummary reports whether a Claude Code file holds summary lines and nothing else (see
// ErrOrphanSummary). A file larger than orphanSummaryMax, or with any other line, is not one.
func IsOrphanSummary(path string) bool {
	head, err := safefile.Head(path, orphanSummaryMax+1)
	if err != nil || len(head) > orphanSummaryMax {
		return false
	}
	n := 0
	for line := range bytes.Lines(head) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &l) != nil || l.Type != "summary" {
			return false
		}
		n++
	}
	return n > 0
}
