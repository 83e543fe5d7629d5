package codex

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/prices"
)

// decodeRollout decodes a rollout line and its payload into l and p; a line that does not decode is
// reported as malformed (false). A line of the rollouts Codex wrote before it wrapped each line in an
// envelope (direct) is its own payload, read as a response_item.
func decodeRollout(malformed func(error), line []byte, l *codexLine, p any) bool {
	if err := json.Unmarshal(line, l); err != nil {
		malformed(err)
		return false
	}
	if direct(l.Type) {
		l.Type, l.Payload, l.bare = "response_item", line, true
	}
	if err := json.Unmarshal(l.Payload, p); err != nil && len(l.Payload) > 0 {
		malformed(fmt.Errorf("payload: %w", err))
		return false
	}
	return true
}

// direct says whether a line's type is a conversation item's own: the rollouts of Codex CLI's first
// Rust releases (mid-2025) wrote the session's metadata ({"id", "timestamp", "instructions"}) as the first
// line, then each item bare — {"type":"function_call","name":…} — with {"record_type":"state"} lines
// between them, and no time and no token counts on any line. The envelope's own types never collide with
// an item's.
func direct(typ string) bool {
	switch typ {
	case "message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call":
		return true
	}
	return false
}

// codexLine is one rollout line: {"timestamp", "ordinal", "type", "payload"}.
type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	bare      bool            // an item written bare, with no envelope (direct)
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

// usage converts Codex's counts to prices.Usage's meanings, for every reader here (the sessions reader,
// the audit's and a turn's usage the hook reads): input_tokens is the whole prompt, cached and
// cache-written parts included, so the input not read from cache is what remains of it.
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
	rec        agentlog.Record
	calls      []agentlog.Call   // from token_usage_record lines; a call's Model holds its turn id until finish
	turnModel  map[string]string // turn_id → model, from turn_context
	lastModel  string
	callIDs    map[string]bool // function_call / custom_tool_call ids: their executions are no extra tool call
	execs      []string        // ids of CommandExecution items, to tell code-mode runs from function calls
	thread     *codexUsage     // the last thread_token_usage: nil, or &lastThread
	lastThread codexUsage
	records    bool            // the rollout has token_usage_record lines
	countTotal int64           // older rollouts: the last token_count total seen
	fallback   []agentlog.Call // older rollouts: one call per token_count whose total changed
	fallbackID []string        // the session id as each fallback call was read, for its key (resolve)
	pending    []string        // tool calls waiting for the record of their response
	bare       bool            // the rollout has items written bare, as Codex CLI's first releases wrote them
	fast       fastRollout
	stamp      string    // the last timestamp parsed (a copy), and its time: lines written
	stampAt    time.Time // in the same millisecond share it
}

// ReadRollout reads one Codex rollout (.jsonl or .jsonl.zst). A resumed session appends to the same
// file, so one file is one session. A bad line is a warning in the record; only a file that cannot be
// opened is an error.
func ReadRollout(path string, opt agentlog.Options) (agentlog.Record, error) {
	s := newSession(path)
	lr, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return agentlog.Record{}, err
	}
	defer closeFn()
	if err := lr.Read(func(line []byte) { s.read(line, lr.Malformed) }); err != nil {
		return agentlog.Record{}, err
	}
	s.rec.Warnings = append(s.rec.Warnings, lr.Warnings()...)
	s.finish(opt)
	return s.rec, nil
}

// newSession starts the session of the rollout at path.
func newSession(path string) *codexSession {
	s := &codexSession{
		rec:       agentlog.Record{Harness: string(harness.Codex), Files: []string{path}},
		turnModel: make(map[string]string),
		callIDs:   make(map[string]bool),
	}
	s.rec.SessionID, _ = RolloutSessionID(path)
	return s
}

// read takes one line: passed over when it holds nothing the session uses (quick), else decoded; one
// that does not decode is reported to malformed.
func (s *codexSession) read(line []byte, malformed func(error)) {
	if decodeAll {
		s.decode(line, malformed)
		return
	}
	if s.quick(line) {
		return
	}
	var l codexLine
	var p codexPayload
	if s.fast.read(line, &l, &p) {
		s.line(&l, &p)
		return
	}
	s.decode(line, malformed)
}

// decodeAll sends every line through the decoder, past the quick pass and the one-pass reader: the
// tests compare the two ways of reading.
var decodeAll = false

// decode reads a line through the decoder.
func (s *codexSession) decode(line []byte, malformed func(error)) {
	var l codexLine
	var p codexPayload
	if decodeRollout(malformed, line, &l, &p) {
		s.line(&l, &p)
	}
}

// parseTime is time.Parse(time.RFC3339Nano, ts), kept for the next line that carries the same stamp.
func (s *codexSession) parseTime(ts string) (time.Time, error) {
	if ts == s.stamp && ts != "" {
		return s.stampAt, nil
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err == nil {
		s.stamp, s.stampAt = strings.Clone(ts), at
	}
	return at, err
}

// parseStamp is parseTime of a stamp in place in a line.
func (s *codexSession) parseStamp(ts []byte) (time.Time, error) {
	if string(ts) == s.stamp && len(ts) > 0 {
		return s.stampAt, nil
	}
	return s.parseTime(string(ts))
}

func (s *codexSession) line(l *codexLine, p *codexPayload) {
	s.bare = s.bare || l.bare
	at, err := s.parseTime(l.Timestamp)
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
		c := agentlog.Call{Key: "codex\x00" + p.ResponseID, Model: p.TurnID, At: at, Usage: p.Usage.usage()}
		s.takePending(&c)
		s.calls = append(s.calls, c)
		if p.Thread != nil {
			s.lastThread = *p.Thread // p's objects are the one-pass reader's, reused
			s.thread = &s.lastThread
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
func (s *codexSession) takePending(c *agentlog.Call) {
	c.Tools, s.pending = s.pending, nil
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
		s.lastThread = *p.Info.Total
		s.thread = &s.lastThread
		if s.records {
			// resolve takes the calls from the token_usage_records: this one would be dropped, and
			// is not made (it was a quarter of the reader's allocation). It takes the held tools all the same.
			s.pending = nil
			return
		}
		// Its key is made in resolve, when the rollout is known to need it.
		c := agentlog.Call{Model: s.lastModel, At: at, Usage: p.Info.Last.usage()}
		s.fallbackID = append(s.fallbackID, s.rec.SessionID)
		s.takePending(&c)
		s.fallback = append(s.fallback, c)
	}
}

// finish resolves the calls (resolve) and sums the record.
func (s *codexSession) finish(opt agentlog.Options) {
	s.rec.Unlogged = s.unlogged() // before resolve: it counts the turn ids the calls still hold
	s.resolve()
	s.rec.SetCalls(s.calls)
	s.rec.Finish(opt)
	if s.thread != nil {
		if got := agentlog.TokensOf(s.thread.usage()); got != s.rec.Tokens {
			s.rec.Warnings = append(s.rec.Warnings, fmt.Sprintf("session %s: the rollout's thread_token_usage (%d tokens) differs from the sum of its calls (%d)",
				s.rec.SessionID, got.Total(), s.rec.Tokens.Total()))
		}
	}
	if s.rec.SessionID == "" {
		s.rec.Warnings = append(s.rec.Warnings, s.rec.Files[0]+": no session_meta and no session id in the name")
	}
	if len(s.calls) == 0 && len(s.callIDs) > 0 {
		// The session ran tools, so it made calls: a row of 0 calls and $0 would say it cost nothing.
		why := "" // a rollout cut before its first count
		if s.bare {
			why = " (as Codex CLI's first releases wrote it)"
		}
		s.rec.Warnings = append(s.rec.Warnings, fmt.Sprintf("session %s: the rollout records %d tool calls and no token counts%s: its API calls, tokens and cost are not known, and not in these figures",
			s.rec.SessionID, len(s.callIDs), why))
	}
}

// unlogged says what the session's record leaves out: Codex (0.169.0 observed) asks the session's model
// for a title with each prompt that reaches it, and never writes those requests to the rollout. A prompt
// that reached the model is a turn with a call (a prompt a hook blocked has none, and asked for no title);
// an older rollout's calls name no turn, so its count is not known.
func (s *codexSession) unlogged() string {
	const what = "Codex's title requests (one per prompt that reaches the model, to the session's model, in Codex 0.169.0)"
	const left = "are billed but never written to the rollout: their cost is in no figure here"
	if !s.records {
		return what + " " + left
	}
	turns := make(map[string]bool)
	for _, c := range s.calls {
		turns[c.Model] = true // the call's turn id until resolve
	}
	if len(turns) == 0 {
		return ""
	}
	return fmt.Sprintf("%s, %d here, %s", what, len(turns), left)
}

// resolve makes the session's calls final: an older rollout's token_count calls when it has no
// token_usage_record, each call's model from its turn (a compaction's record can come before its turn's
// turn_context), and the code-mode executions counted as the last call's tools.
func (s *codexSession) resolve() {
	if !s.records {
		s.calls = s.fallback
		for i := range s.calls {
			s.calls[i].Key = fmt.Sprintf("codex\x00%s\x00%d", s.fallbackID[i], i)
		}
	} else {
		for i := range s.calls {
			c := &s.calls[i]
			if m, ok := s.turnModel[c.Model]; ok {
				c.Model = m
			} else {
				c.Model = s.lastModel
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
	if n := len(s.calls); n > 0 {
		last := &s.calls[n-1]
		last.Tools = append(last.Tools, extra...)
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
	typ, ok := agentlog.FieldBytes(rest, []byte(`"type"`))
	if !ok {
		return false
	}
	switch string(typ) {
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
	at, err := s.parseStamp(ts)
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
func codexUsed(typ, payloadType, line []byte) bool {
	if string(typ) == "response_item" {
		return string(payloadType) == "function_call" || string(payloadType) == "custom_tool_call"
	}
	switch string(payloadType) {
	case "token_count":
		return true
	case "item_completed":
		return bytes.Contains(line, []byte(`"CommandExecution"`))
	}
	return false
}

// leadingString reads `<open> <key> : "<value>"` at the start of b (blanks allowed between the parts) and
// returns what follows the value, the value (in place, without escapes) and whether b starts that way.
func leadingString(b, open, key []byte) (rest, value []byte, ok bool) {
	b = agentlog.TrimBlanks(b)
	for _, c := range open {
		if len(b) == 0 || b[0] != c {
			return nil, nil, false
		}
		b = agentlog.TrimBlanks(b[1:])
	}
	if !bytes.HasPrefix(b, key) {
		return nil, nil, false
	}
	v, ok := agentlog.FieldBytes(b, key) // the key's first place is where b starts
	if !ok {
		return nil, nil, false
	}
	return b[len(key):], v, true
}
