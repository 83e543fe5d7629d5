package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
)

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

// transcriptReader assembles a transcript for the audit.
type transcriptReader struct {
	*agentlog.Assembly
	// summaries and others count the summary lines (Claude Code 1.0's titles of a conversation, by the
	// uuid of its last message) and every other line: a file of summaries alone is no session.
	summaries, others int
	lastMsg           string    // message.id of the assistant message being assembled
	index             callIndex // the calls by key (calls.go)
	// uuid is the line's own uuid when it is an assistant line with no message id, whose call it names
	// (calls.go); read only then, since every line has one.
	uuid string
}

// ReadTranscript reads the main transcript at path for an offline audit (its subagents are not part of
// the main loop's rows): the person's prompts, every tool call with its result and real duration, and
// each turn's calls and tokens. Bad lines are warnings; only a file that cannot be opened is an error.
func ReadTranscript(path string, opt agentlog.Options) (agentlog.Transcript, error) {
	lr, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return agentlog.Transcript{}, err
	}
	defer closeFn()
	r := &transcriptReader{Assembly: agentlog.NewAssembly(string(harness.ClaudeCode), ""), index: newCallIndex()}
	if err := lr.Read(func(line []byte) {
		var l transcriptLine
		if err := json.Unmarshal(line, &l); err != nil {
			lr.Malformed(err)
			return
		}
		r.uuid = ""
		if l.Type == "assistant" && l.Message != nil && l.Message.ID == "" {
			var id struct {
				UUID string `json:"uuid"`
			}
			_ = json.Unmarshal(line, &id) // it decoded once already
			r.uuid = id.UUID
		}
		if err := r.line(&l); err != nil {
			lr.Malformed(err)
		}
	}); err != nil {
		return agentlog.Transcript{}, err
	}
	r.T.Warnings = append(r.T.Warnings, lr.Warnings()...)
	if r.summaries > 0 && r.others == 0 {
		return agentlog.Transcript{}, fmt.Errorf("%s: %w", path, ErrOrphanSummary)
	}
	if err := r.Finish(); err != nil {
		return agentlog.Transcript{}, fmt.Errorf("%s: %w", path, err)
	}
	return r.T, nil
}

// ErrOrphanSummary is a Claude Code file that holds summary lines alone: Claude Code 1.0 wrote the
// titles of conversations into files of their own, each naming the last message (leafUuid) of a
// conversation another session's transcript holds. There is no session in it.
var ErrOrphanSummary = errors.New("an orphan summary file: only summary lines, titles of conversations another session's transcript holds, no session of its own")

func (r *transcriptReader) line(l *transcriptLine) error {
	if r.T.Cwd == "" {
		r.T.Cwd = l.Cwd
	}
	if r.T.SessionID == "" {
		r.T.SessionID = l.SessionID
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
		if isCompaction(l.Type, l.Subtype) && !l.IsSidechain {
			r.Compacted()
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
	msg := agentlog.WireMessage{Role: "user"}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg.Text += b.Text
		case "tool_result":
			r.Outcomes[b.ToolUseID] = agentlog.Outcome{Result: l.ToolResult, Text: agentlog.ResultText(b.Content), IsError: b.IsError, At: at}
			if d, ok := r.Uses[b.ToolUseID]; ok && !at.IsZero() && !d.IsZero() {
				r.T.Durations[b.ToolUseID] = max(0, at.Sub(d).Milliseconds())
			}
			msg.Results = append(msg.Results, agentlog.ResultRef(b.ToolUseID))
		}
	}
	if len(msg.Results) > 0 {
		r.Wire = append(r.Wire, msg)
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
	r.Wire = append(r.Wire, agentlog.WireMessage{Role: "user", Text: text})
	r.T.Turns = append(r.T.Turns, agentlog.TurnUsage{Start: at, End: at})
}

// assistant adds one content block to the message it belongs to (one line per block, same message.id)
// and counts its call (calls.go).
func (r *transcriptReader) assistant(l *transcriptLine, at time.Time) error {
	m := l.Message
	if m.ID == "" || m.ID != r.lastMsg {
		r.Wire = append(r.Wire, agentlog.WireMessage{Role: "assistant"})
		r.lastMsg = m.ID
	}
	msg := &r.Wire[len(r.Wire)-1]
	if isCall(m.Usage, m.Model) {
		r.T.Model = m.Model
		u := m.Usage.usage()
		if i, key := r.index.call(m.ID, l.RequestID, r.uuid); key != "" {
			r.Calls = append(r.Calls, agentlog.TurnCall{Turn: len(r.T.Turns) - 1, At: at, Usage: u})
		} else if larger(u, r.Calls[i].Usage) {
			r.Calls[i].Usage = u
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
			msg.ToolUses = append(msg.ToolUses, agentlog.WireUse{Tool: b.Name, ToolUseID: b.ID, Input: b.Input})
			r.Uses[b.ID] = at
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
