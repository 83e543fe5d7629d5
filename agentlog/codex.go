package agentlog

import (
	"bytes"
	"fmt"
	"regexp"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/prices"
)

// decodeRollout decodes a rollout line and its payload into l and p; a line that does not decode is
// reported as malformed (false).
func decodeRollout(lr *lineReader, line []byte, l *codexLine, p any) bool {
	if err := json.Unmarshal(line, l); err != nil {
		lr.malformed(err)
		return false
	}
	if err := json.Unmarshal(l.Payload, p); err != nil && len(l.Payload) > 0 {
		lr.malformed(fmt.Errorf("payload: %w", err))
		return false
	}
	return true
}

// codexLine is one rollout line: {"timestamp", "ordinal", "type", "payload"}.
type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexPayload holds the fields of every payload kind the reader uses; each kind fills its own.
type codexPayload struct {
	Type       string      `json:"type"`
	ID         string      `json:"id"`
	Timestamp  string      `json:"timestamp"`
	Cwd        string      `json:"cwd"`
	TurnID     string      `json:"turn_id"`
	Model      string      `json:"model"`
	ResponseID string      `json:"response_id"`
	Name       string      `json:"name"`
	CallID     string      `json:"call_id"`
	Usage      *codexUsage `json:"usage"`
	Thread     *codexUsage `json:"thread_token_usage"`
	Info       *codexInfo  `json:"info"`
	Item       *codexItem  `json:"item"`
	Metadata   *codexMeta  `json:"metadata"`
}

type codexUsage struct {
	Input      int64 `json:"input_tokens"`
	Cached     int64 `json:"cached_input_tokens"`
	CacheWrite int64 `json:"cache_write_input_tokens"`
	Output     int64 `json:"output_tokens"`
	Total      int64 `json:"total_tokens"`
}

type codexInfo struct {
	Total *codexUsage `json:"total_token_usage"`
	Last  *codexUsage `json:"last_token_usage"`
}

type codexItem struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

type codexMeta struct {
	CompactionOutput bool `json:"compaction_output"`
}

// usage converts Codex's counts to one meaning for both harnesses: input_tokens is the whole prompt, cached
// and cache-written parts included, so the input not read from cache is what remains of it.
func (u *codexUsage) usage() prices.Usage {
	return prices.Usage{
		Input:        max(0, u.Input-u.Cached-u.CacheWrite),
		CacheRead:    u.Cached,
		CacheWrite5m: u.CacheWrite,
		Output:       u.Output,
	}
}

// codexSession accumulates one rollout.
type codexSession struct {
	rec        Record
	turnModel  map[string]string // turn_id → model, from turn_context
	lastModel  string
	callIDs    map[string]bool // function_call / custom_tool_call ids: their executions are no extra tool call
	execs      []string        // ids of CommandExecution items, to tell code-mode runs from function calls
	thread     *codexUsage     // the last thread_token_usage
	records    bool            // the rollout has token_usage_record lines
	countTotal int64           // older rollouts: the last token_count total seen
	fallback   []call          // older rollouts: one call per token_count whose total changed
	pending    []string        // tool calls waiting for the record of their response
}

// rolloutID is the session uuid at the end of a rollout file's name.
var rolloutID = regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$`)

// ReadCodexRollout reads one Codex rollout (.jsonl or .jsonl.zst). A resumed session appends to the same
// file, so one file is one session. A bad line is a warning in the record; only a file that cannot be
// opened is an error.
func ReadCodexRollout(path string, opt Options) (Record, error) {
	s := &codexSession{
		rec:       Record{Harness: HarnessCodex, Files: []string{path}},
		turnModel: make(map[string]string),
		callIDs:   make(map[string]bool),
	}
	s.rec.SessionID, _ = RolloutSessionID(path)
	lr, closeFn, err := openLog(path, opt)
	if err != nil {
		return Record{}, err
	}
	defer closeFn()
	if err := lr.each(func(line []byte) {
		if s.quick(line) {
			return
		}
		var l codexLine
		var p codexPayload
		if decodeRollout(lr, line, &l, &p) {
			s.line(&l, &p)
		}
	}); err != nil {
		return Record{}, err
	}
	s.rec.Warnings = append(s.rec.Warnings, lr.warnings()...)
	s.finish(opt)
	return s.rec, nil
}

func (s *codexSession) line(l *codexLine, p *codexPayload) {
	at, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	if err == nil && at.After(s.rec.End) {
		s.rec.End = at // the end is the last line's time
	}
	switch l.Type {
	case "session_meta":
		if p.ID != "" {
			s.rec.SessionID = p.ID
		}
		if start, err := time.Parse(time.RFC3339Nano, p.Timestamp); err == nil {
			s.rec.Start = start
		}
		if p.Cwd != "" {
			s.rec.Cwd = p.Cwd
		}
	case "turn_context":
		if p.Model != "" {
			s.turnModel[p.TurnID] = p.Model
			s.lastModel = p.Model
		}
		if s.rec.Cwd == "" {
			s.rec.Cwd = p.Cwd
		}
	case "token_usage_record":
		// Exactly one per completed model response, compaction included.
		if p.Usage == nil {
			return
		}
		s.records = true
		c := call{key: "codex\x00" + p.ResponseID, model: p.TurnID, at: at, usage: p.Usage.usage()}
		s.takePending(&c)
		s.rec.calls = append(s.rec.calls, c)
		if p.Thread != nil {
			s.thread = p.Thread
		}
	case "response_item":
		s.responseItem(p)
	case "event_msg":
		s.event(p, at)
	}
	if s.rec.Start.IsZero() && !at.IsZero() {
		s.rec.Start = at
	}
}

// responseItem counts tool calls by name; items a compaction replayed never ran.
func (s *codexSession) responseItem(p *codexPayload) {
	if p.Metadata != nil && p.Metadata.CompactionOutput {
		return
	}
	if p.Type != "function_call" && p.Type != "custom_tool_call" || p.Name == "" {
		return
	}
	s.callIDs[p.CallID] = true
	s.tool(p.Name)
}

// tool holds a tool call for the next API call: the function_call line comes before the
// token_usage_record of the response that asked for it.
func (s *codexSession) tool(name string) { s.pending = append(s.pending, name) }

// takePending gives the held tool calls to the call just read.
func (s *codexSession) takePending(c *call) {
	c.tools, s.pending = s.pending, nil
}

func (s *codexSession) event(p *codexPayload, at time.Time) {
	switch p.Type {
	case "item_completed":
		if p.Item != nil && p.Item.Type == "CommandExecution" {
			s.execs = append(s.execs, p.Item.ID)
		}
	case "token_count":
		// Older rollouts have no token_usage_record: a token_count whose total changed is a response.
		if p.Info == nil || p.Info.Total == nil || p.Info.Last == nil || p.Info.Total.Total == s.countTotal {
			return
		}
		s.countTotal = p.Info.Total.Total
		c := call{key: fmt.Sprintf("codex\x00%s\x00%d", s.rec.SessionID, len(s.fallback)),
			model: s.lastModel, at: at, usage: p.Info.Last.usage()}
		s.takePending(&c)
		s.fallback = append(s.fallback, c)
		t := *p.Info.Total
		s.thread = &t
	}
}

// finish resolves each call's model from its turn (a compaction's record can come before its turn's
// turn_context), counts code-mode executions, and sums the record.
func (s *codexSession) finish(opt Options) {
	tab := opt.table()
	if !s.records {
		s.rec.calls = s.fallback
	} else {
		for i := range s.rec.calls {
			c := &s.rec.calls[i]
			if m, ok := s.turnModel[c.model]; ok {
				c.model = m
			} else {
				c.model = s.lastModel
			}
		}
	}
	// In code mode every tool call is an exec running JS; what it ran shows as CommandExecution items
	// that no function_call asked for, and hooks see those as Bash.
	extra := s.pending
	for _, id := range s.execs {
		if !s.callIDs[id] {
			extra = append(extra, "Bash")
		}
	}
	if n := len(s.rec.calls); n > 0 {
		last := &s.rec.calls[n-1]
		last.tools = append(last.tools, extra...)
	}
	s.rec.placeRepo(opt.tops)
	s.rec.finish(tab)
	s.rec.unpricedWarnings()
	if s.thread != nil {
		want := s.thread.usage()
		got := Tokens{Input: want.Input, Output: want.Output, CacheRead: want.CacheRead, CacheWrite: want.CacheWrite5m}
		if got != s.rec.Tokens {
			s.rec.Warnings = append(s.rec.Warnings, fmt.Sprintf("session %s: the rollout's thread_token_usage (%d tokens) differs from the sum of its calls (%d)",
				s.rec.SessionID, got.Total(), s.rec.Tokens.Total()))
		}
	}
	if s.rec.SessionID == "" {
		s.rec.Warnings = append(s.rec.Warnings, s.rec.Files[0]+": no session_meta and no session id in the name")
	}
}

// quick takes a line the reader has no use for without decoding it: messages, reasoning, tool outputs and
// most events, which are most of a rollout's bytes. Codex writes a line's timestamp first and its type
// before its payload, and a payload's type first; a line laid out otherwise, or of a kind the reader uses,
// is left to the decoder (false).
func (s *codexSession) quick(line []byte) bool {
	rest, ts, ok := leadingString(line, []byte(`{`), []byte(`"timestamp"`))
	if !ok {
		return false
	}
	typ, ok := valueOf(rest, []byte(`"type"`))
	if !ok {
		return false
	}
	switch typ {
	case "compacted", "world_state":
	case "response_item", "event_msg":
		i := bytes.Index(rest, []byte(`"payload"`))
		if i < 0 {
			return false
		}
		_, pt, ok := leadingString(rest[i+len(`"payload"`):], []byte(`:{`), []byte(`"type"`))
		if !ok || codexUsed(typ, pt, rest) {
			return false
		}
	default:
		return false
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return false
	}
	if at.After(s.rec.End) {
		s.rec.End = at
	}
	if s.rec.Start.IsZero() {
		s.rec.Start = at
	}
	return true
}

// codexUsed says whether a payload of this kind matters to the record.
func codexUsed(typ, payloadType string, line []byte) bool {
	if typ == "response_item" {
		return payloadType == "function_call" || payloadType == "custom_tool_call"
	}
	switch payloadType {
	case "token_count":
		return true
	case "item_completed":
		return bytes.Contains(line, []byte(`"CommandExecution"`))
	}
	return false
}

// leadingString reads `<open> <key> : "<value>"` at the start of b (blanks allowed between the parts) and
// returns what follows the value, the value (without escapes) and whether b starts that way.
func leadingString(b, open, key []byte) (rest []byte, value string, ok bool) {
	b = bytes.TrimLeft(b, " \t")
	for _, c := range open {
		if len(b) == 0 || b[0] != c {
			return nil, "", false
		}
		b = bytes.TrimLeft(b[1:], " \t")
	}
	if !bytes.HasPrefix(b, key) {
		return nil, "", false
	}
	v, ok := valueAt(b[len(key):])
	if !ok {
		return nil, "", false
	}
	return b[len(key):], v, true
}

// valueOf is the string value of the first occurrence of key in b.
func valueOf(b, key []byte) (string, bool) {
	i := bytes.Index(b, key)
	if i < 0 {
		return "", false
	}
	return valueAt(b[i+len(key):])
}

// valueAt reads `: "<value>"` (blanks allowed) at the start of b; a value with an escape is refused.
func valueAt(b []byte) (string, bool) {
	b = bytes.TrimLeft(b, " \t")
	if len(b) == 0 || b[0] != ':' {
		return "", false
	}
	b = bytes.TrimLeft(b[1:], " \t")
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 || bytes.IndexByte(b[1:1+end], '\\') >= 0 {
		return "", false
	}
	return string(b[1 : 1+end]), true
}
