package codex

import (
	"fmt"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
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
	Content   []textBlock     `json:"content"`
	Item      *codexExecItem  `json:"item"`
	Started   int64           `json:"started_at_ms"`
	Completed int64           `json:"completed_at_ms"`
}

// textBlock is a block of a message's content; only its text is read.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codexExecItem is an item_completed event's item; a CommandExecution is a command that ran.
type codexExecItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Command []any  `json:"command"`
	Output  string `json:"aggregated_output"`
}

// codexTranscript assembles a rollout into the shape every harness's reader gives, so one replay serves
// them all.
type codexTranscript struct {
	r        *agentlog.Assembly
	prompted bool  // the current turn's typed prompt has been seen
	tasks    bool  // the rollout writes task_started (Codex 0.6x and later); older ones open a turn at the prompt
	records  bool  // the rollout has token_usage_record lines (one per model response)
	total    int64 // older rollouts: the last token_count total, to tell a new response
	fallback []agentlog.TurnCall
	// ends holds each turn's task_complete time, applied after the calls are summed: the sum takes a
	// turn's window from its last call, which a turn's end must not hide.
	ends map[int]time.Time
	last time.Time // the time of the last line that had one (time)
}

// ReadTranscript reads a Codex rollout (.jsonl or .jsonl.zst) for an offline audit: each turn from its
// task_started to its task_complete (a rollout with no task_started, as Codex 0.58 and older wrote: from
// the person's message to the turn's last call), the person's prompt, every tool call with its output and real
// duration, and each turn's calls and tokens. A resumed session appends to the same file, so one file is
// one session. Bad lines are warnings; only a file that cannot be opened is an error.
func ReadTranscript(path string, opt agentlog.Options) (agentlog.Transcript, error) {
	lr, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return agentlog.Transcript{}, err
	}
	defer closeFn()
	id, _ := RolloutSessionID(path)
	c := &codexTranscript{ends: map[int]time.Time{}, r: agentlog.NewAssembly(string(harness.Codex), id)}
	if err := lr.Read(func(line []byte) {
		var l codexLine
		var p codexTurnPayload
		if decodeRollout(lr.Malformed, line, &l, &p) {
			c.line(l.Type, &p, c.time(l.Timestamp))
		}
	}); err != nil {
		return agentlog.Transcript{}, err
	}
	c.dropBlocked()
	if !c.records {
		c.r.Calls = c.fallback
	}
	c.r.T.Warnings = append(c.r.T.Warnings, lr.Warnings()...)
	if err := c.r.Finish(); err != nil {
		return agentlog.Transcript{}, fmt.Errorf("%s: %w", path, err)
	}
	for i, end := range c.ends {
		if t := &c.r.T.Turns[i]; end.After(t.End) {
			t.End = end
		}
	}
	return c.r.T, nil
}

// time is a line's time; a line with none (every item of a rollout from before the envelope, whose
// first line alone has a time) takes the time of the last line that had one.
func (c *codexTranscript) time(stamp string) time.Time {
	if at, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
		c.last = at
	}
	return c.last
}

func (c *codexTranscript) line(typ string, p *codexTurnPayload, at time.Time) {
	t := &c.r.T
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
			c.r.Calls = append(c.r.Calls, agentlog.TurnCall{Turn: len(t.Turns) - 1, At: at, Usage: p.Usage.usage()})
		}
	case compacted:
		c.r.Compacted()
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
	t := &c.r.T
	switch p.Type {
	case "task_started":
		if !c.tasks && len(t.Turns) > 0 {
			// A rollout an older Codex began and a newer one resumed: the older part's turns were opened
			// at their prompts, and from here task_started opens them.
			c.prompted = false
		}
		c.dropBlocked()
		c.tasks = true
		t.Turns = append(t.Turns, agentlog.TurnUsage{Start: at, End: at})
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
		c.fallback = append(c.fallback, agentlog.TurnCall{Turn: len(t.Turns) - 1, At: at, Usage: p.Info.Last.usage()})
	}
}

// dropBlocked takes back the last turn when nothing happened in it: a task with no prompt, no tool call
// and no API call is a prompt a UserPromptSubmit hook blocked (saverd's own `$saver` commands; Codex
// 0.169.0 still writes task_started and task_complete for it). The live side never counts such a prompt
// as a turn, and the audit does not either.
func (c *codexTranscript) dropBlocked() {
	t := &c.r.T
	n := len(t.Turns)
	if !c.tasks || n == 0 || c.prompted {
		return
	}
	for _, calls := range [][]agentlog.TurnCall{c.r.Calls, c.fallback} {
		if k := len(calls); k > 0 && calls[k-1].Turn == n-1 {
			return
		}
	}
	t.Turns = t.Turns[:n-1]
	delete(c.ends, n-1)
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
			c.r.T.Turns = append(c.r.T.Turns, agentlog.TurnUsage{Start: at, End: at})
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
		tool, in := Tool(p.Name, p.Arguments, p.Input)
		use := agentlog.WireUse{Tool: tool, ToolUseID: p.CallID}
		if in != nil {
			use.Input, _ = json.Marshal(in) // a map of decoded JSON values always encodes
		}
		r.Wire = append(r.Wire, agentlog.WireMessage{Role: "assistant", ToolUses: []agentlog.WireUse{use}})
		r.Uses[p.CallID] = at
	case "function_call_output", "custom_tool_call_output":
		if _, ok := r.Uses[p.CallID]; !ok {
			return
		}
		r.Outcomes[p.CallID] = agentlog.Outcome{Text: agentlog.ResultText(p.Output), At: at}
		if d := r.Uses[p.CallID]; !at.IsZero() && !d.IsZero() {
			r.T.Durations[p.CallID] = max(0, at.Sub(d).Milliseconds())
		}
		r.Wire = append(r.Wire, agentlog.WireMessage{Role: "user", Results: []json.RawMessage{agentlog.ResultRef(p.CallID)}})
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
	if _, ok := r.Uses[it.ID]; ok {
		return
	}
	if !c.prompted {
		c.prompt("(no prompt recorded for this turn)")
	}
	raw, _ := json.Marshal(map[string]any{"command": joinArgv(it.Command)}) // a string map always encodes
	r.Wire = append(r.Wire, agentlog.WireMessage{Role: "assistant", ToolUses: []agentlog.WireUse{{Tool: "Bash", ToolUseID: it.ID, Input: raw}}})
	out := it.Output
	r.Uses[it.ID] = time.UnixMilli(p.Started)
	r.Outcomes[it.ID] = agentlog.Outcome{Text: &out}
	r.T.Durations[it.ID] = max(0, p.Completed-p.Started)
	r.Wire = append(r.Wire, agentlog.WireMessage{Role: "user", Results: []json.RawMessage{agentlog.ResultRef(it.ID)}})
}

// prompt is the turn's typed prompt: the message that makes the rows after it this turn's.
func (c *codexTranscript) prompt(text string) {
	c.prompted = true
	c.r.Wire = append(c.r.Wire, agentlog.WireMessage{Role: "user", Text: text})
}

// injected: a user message Codex writes itself before the person's prompt, the environment
// (<environment_context>…) and the project's instructions (AGENTS.md, <user_instructions>…).
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<environment_context>") || strings.HasPrefix(t, "<user_instructions>") ||
		strings.HasPrefix(t, "# AGENTS.md instructions")
}
