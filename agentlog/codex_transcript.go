package agentlog

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/safefile"
)

// codexTurnPayload is what the audit reads of a rollout line's payload: the record reader's fields and
// what rebuilds rows. Its Item, with the command an execution ran and its output, is read in place of the
// record reader's (the shallower field wins), which never needs those.
type codexTurnPayload struct {
	codexPayload
	Role      string          `json:"role"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
	Content   []contentBlock  `json:"content"`
	Item      *codexExecItem  `json:"item"`
	Started   int64           `json:"started_at_ms"`
	Completed int64           `json:"completed_at_ms"`
}

// codexExecItem is an item_completed event's item; a CommandExecution is a command that ran.
type codexExecItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Command []any  `json:"command"`
	Output  string `json:"aggregated_output"`
}

// codexTranscript assembles a rollout into the shape the Claude Code reader gives, so one replay serves
// both harnesses.
type codexTranscript struct {
	r        *transcriptReader
	prompted bool  // the current turn's typed prompt has been seen
	tasks    bool  // the rollout writes task_started (Codex 0.6x and later); older ones open a turn at the prompt
	records  bool  // the rollout has token_usage_record lines (one per model response)
	total    int64 // older rollouts: the last token_count total, to tell a new response
	fallback []turnCall
	// ends holds each turn's task_complete time, applied after the calls are summed: the sum takes a
	// turn's window from its last call, which a turn's end must not hide.
	ends map[int]time.Time
}

// ReadCodexTranscript reads a Codex rollout (.jsonl or .jsonl.zst) for an offline audit: each turn from its
// task_started to its task_complete (a rollout with no task_started, as Codex 0.58 and older wrote: from
// the person's message to the turn's last call), the person's prompt, every tool call with its output and real
// duration, and each turn's calls and tokens. A resumed session appends to the same file, so one file is
// one session. Bad lines are warnings; only a file that cannot be opened is an error.
func ReadCodexTranscript(path string, opt Options) (Transcript, error) {
	lr, closeFn, err := openLog(path, opt)
	if err != nil {
		return Transcript{}, err
	}
	defer closeFn()
	c := &codexTranscript{ends: map[int]time.Time{}, r: &transcriptReader{
		t:        Transcript{Harness: HarnessCodex, Durations: map[string]int64{}},
		uses:     map[string]time.Time{},
		outcomes: map[string]toolOutcome{},
		calls:    map[string]int{},
	}}
	c.r.t.SessionID, _ = RolloutSessionID(path)
	if err := lr.each(func(line []byte) {
		var l codexLine
		var p codexTurnPayload
		if decodeRollout(lr, line, &l, &p) {
			at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
			c.line(l.Type, &p, at)
		}
	}); err != nil {
		return Transcript{}, err
	}
	if !c.records {
		c.r.usage = c.fallback
	}
	c.r.t.Warnings = append(c.r.t.Warnings, lr.warnings()...)
	if err := c.r.finish(); err != nil {
		return Transcript{}, fmt.Errorf("%s: %w", path, err)
	}
	for i, end := range c.ends {
		if t := &c.r.t.Turns[i]; end.After(t.End) {
			t.End = end
		}
	}
	return c.r.t, nil
}

func (c *codexTranscript) line(typ string, p *codexTurnPayload, at time.Time) {
	t := &c.r.t
	switch typ {
	case "session_meta":
		if p.ID != "" {
			t.SessionID = p.ID
		}
		if p.Cwd != "" {
			t.Cwd = p.Cwd
		}
	case "turn_context":
		if p.Model != "" {
			t.Model = p.Model
		}
		if t.Cwd == "" {
			t.Cwd = p.Cwd
		}
	case "token_usage_record":
		if p.Usage != nil {
			c.records = true
			c.r.usage = append(c.r.usage, turnCall{turn: len(t.Turns) - 1, at: at, usage: p.Usage.usage()})
		}
	case "compacted":
		c.r.compacted()
	case "event_msg":
		c.event(p, at)
	case "response_item":
		if p.Metadata == nil || !p.Metadata.CompactionOutput { // what a compaction replayed never ran
			c.item(p, at)
		}
	}
}

// event starts a turn on task_started and ends it on task_complete; a token_count is a response in a
// rollout old enough to have no token_usage_record.
func (c *codexTranscript) event(p *codexTurnPayload, at time.Time) {
	t := &c.r.t
	switch p.Type {
	case "task_started":
		if !c.tasks && len(t.Turns) > 0 {
			// A rollout an older Codex began and a newer one resumed: the older part's turns were opened
			// at their prompts, and from here task_started opens them.
			c.prompted = false
		}
		c.tasks = true
		t.Turns = append(t.Turns, TurnUsage{Start: at, End: at})
		c.prompted = false
	case "task_complete", "turn_aborted":
		if n := len(t.Turns); n > 0 && !at.IsZero() {
			c.ends[n-1] = at
		}
	case "item_completed":
		c.execution(p)
	case "token_count":
		if p.Info == nil || p.Info.Total == nil || p.Info.Last == nil || p.Info.Total.Total == c.total {
			return
		}
		c.total = p.Info.Total.Total
		c.fallback = append(c.fallback, turnCall{turn: len(t.Turns) - 1, at: at, usage: p.Info.Last.usage()})
	}
}

// item is a message or a tool call of the conversation, or a tool call's output.
func (c *codexTranscript) item(p *codexTurnPayload, at time.Time) {
	r := c.r
	switch p.Type {
	case "message":
		if p.Role != "user" {
			return
		}
		text := ""
		for _, b := range p.Content {
			text += b.Text
		}
		if injected(text) {
			return
		}
		if !c.tasks {
			// Codex 0.58 and older write no task_started (nor task_complete): the person's message opens
			// the turn, which ends with its last call.
			c.r.t.Turns = append(c.r.t.Turns, TurnUsage{Start: at, End: at})
			c.prompted = false
		}
		if c.prompted {
			return
		}
		c.prompt(text)
	case "function_call", "custom_tool_call":
		if !c.prompted {
			c.prompt("(no prompt recorded for this turn)") // the rows still belong to this turn
		}
		tool, in := CodexTool(p.Name, p.Arguments, p.Input)
		use := wireUse{Tool: tool, ToolUseID: p.CallID}
		if in != nil {
			use.Input, _ = json.Marshal(in) // a map of decoded JSON values always encodes
		}
		r.wire = append(r.wire, wireMessage{Role: "assistant", ToolUses: []wireUse{use}})
		r.uses[p.CallID] = at
	case "function_call_output", "custom_tool_call_output":
		if _, ok := r.uses[p.CallID]; !ok {
			return
		}
		r.outcomes[p.CallID] = toolOutcome{text: resultText(p.Output), at: at}
		if d := r.uses[p.CallID]; !at.IsZero() && !d.IsZero() {
			r.t.Durations[p.CallID] = max(0, at.Sub(d).Milliseconds())
		}
		r.wire = append(r.wire, wireMessage{Role: "user", Results: []json.RawMessage{json.RawMessage(`{"tool_use_id":` + quoteJSON(p.CallID) + `}`)}})
	}
}

// execution is a command Codex ran. One that a function call asked for is that call's row already; in
// code mode the model's call is an exec running JavaScript, and each command that script ran is a row of
// its own, a Bash call, as Codex's hooks report it.
func (c *codexTranscript) execution(p *codexTurnPayload) {
	it := p.Item
	if it == nil || it.Type != "CommandExecution" || it.ID == "" || len(it.Command) == 0 {
		return
	}
	r := c.r
	if _, ok := r.uses[it.ID]; ok {
		return
	}
	if !c.prompted {
		c.prompt("(no prompt recorded for this turn)")
	}
	raw, _ := json.Marshal(map[string]any{"command": joinArgv(it.Command)}) // a string map always encodes
	r.wire = append(r.wire, wireMessage{Role: "assistant", ToolUses: []wireUse{{Tool: "Bash", ToolUseID: it.ID, Input: raw}}})
	out := it.Output
	r.uses[it.ID] = time.UnixMilli(p.Started)
	r.outcomes[it.ID] = toolOutcome{text: &out}
	r.t.Durations[it.ID] = max(0, p.Completed-p.Started)
	r.wire = append(r.wire, wireMessage{Role: "user", Results: []json.RawMessage{json.RawMessage(`{"tool_use_id":` + quoteJSON(it.ID) + `}`)}})
}

// prompt is the turn's typed prompt: the message that makes the rows after it this turn's.
func (c *codexTranscript) prompt(text string) {
	c.prompted = true
	c.r.wire = append(c.r.wire, wireMessage{Role: "user", Text: text})
}

// injected: a user message Codex writes itself before the person's prompt, the environment
// (<environment_context>…) and the project's instructions (AGENTS.md, <user_instructions>…).
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<environment_context>") || strings.HasPrefix(t, "<user_instructions>") ||
		strings.HasPrefix(t, "# AGENTS.md instructions")
}

// ReadTranscript reads a session for an offline audit, a Codex rollout or a Claude Code transcript, told
// apart by a rollout's name or the session_meta line at its head.
func ReadTranscript(path string, opt Options) (Transcript, error) {
	if isRollout(path) || startsRollout(path) {
		return ReadCodexTranscript(path, opt)
	}
	return ReadClaudeTranscript(path, opt)
}

// startsRollout: the file opens with a rollout's session_meta line, whatever its name.
func startsRollout(path string) bool {
	head, err := safefile.Head(path, 4096)
	return err == nil && bytes.Contains(head, []byte(`"session_meta"`))
}

// RolloutSessionID is the session uuid a rollout file's name ends with.
func RolloutSessionID(name string) (string, bool) {
	if m := rolloutID.FindStringSubmatch(filepath.Base(name)); m != nil {
		return m[1], true
	}
	return "", false
}
