package claude

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/prices"
)

// claudeLine is what the reader needs of one transcript line; every other field is skipped.
type claudeLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	SessionID string `json:"sessionId"`
	// RequestSession is the session that made the call, on a line a --fork-session transcript copied
	// (Claude Code 2.1.328 writes the fork's own id in sessionId there); absent elsewhere.
	RequestSession string          `json:"requestSessionId"`
	RequestID      string          `json:"requestId"`
	UUID           string          `json:"uuid"`
	Message        claudeMessage   `json:"message"` // a value: most lines have one, and each pointer is an allocation
	Total          *float64        `json:"totalCostUSD"`
	ModelUse       map[string]ccMU `json:"modelUsage"`
}

type claudeMessage struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Usage   *claudeUsage    `json:"usage"`
	Content json.RawMessage `json:"content"` // a string on typed prompts, blocks otherwise
}

// ccMU is one model's entry in a cost-state line's modelUsage.
type ccMU struct {
	Input       int64   `json:"inputTokens"`
	Output      int64   `json:"outputTokens"`
	CacheRead   int64   `json:"cacheReadInputTokens"`
	CacheCreate int64   `json:"cacheCreationInputTokens"`
	CostUSD     float64 `json:"costUSD"`
}

type block struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// claudeSession accumulates one session over its transcript and its subagents' transcripts.
type claudeSession struct {
	rec     agentlog.Record
	calls   []agentlog.Call     // the session's calls, the slice reused from session to session
	index   callIndex           // the calls by key (calls.go)
	toolIDs map[string]struct{} // tool_use ids counted, so a block repeated on two lines counts once
	strs    map[string]string   // interned strings
	scratch claudeLine          // the line being decoded, reused: its strings point into the read buffer
	fast    fastLine            // the one-pass reader's scratch
	last    [2]string           // the strings interned last: most lines repeat them
	cost    *claudeCostState    // the last cost-state line of the main transcript
	// canon is the ids canonOf prices the models under, kept from session to session (FinishWith).
	canon   map[string]string
	canonOf *prices.Table
	// lastTime is the time last parsed and its text: the lines of one API call, and the bookkeeping
	// lines around it, are mostly written with the same timestamp.
	lastTime struct {
		text [40]byte
		n    int
		at   time.Time
		ok   bool
	}
}

// parseTime is time.Parse(time.RFC3339Nano, v), and whether it parsed, from the last answer when v is
// the text last parsed. Only whether it failed is kept: a parse error holds the text it failed on,
// which may point into the reused line buffer.
func (s *claudeSession) parseTime(v string) (time.Time, bool) {
	lt := &s.lastTime
	if len(v) == lt.n && v == string(lt.text[:lt.n]) && lt.n > 0 {
		return lt.at, lt.ok
	}
	at, err := time.Parse(time.RFC3339Nano, v)
	if len(v) <= len(lt.text) {
		lt.n = copy(lt.text[:], v)
		lt.at, lt.ok = at, err == nil
	}
	return at, err == nil
}

// claudeSessions reuses the sessions' maps and slices: a scan of thousands of sessions otherwise grew
// three maps and a slice of calls from nothing for each one, most of the scan's allocation (a 5,000-session
// corpus: 127 MB a scan).
var claudeSessions = sync.Pool{New: func() any {
	return &claudeSession{index: newCallIndex(), toolIDs: make(map[string]struct{}), strs: make(map[string]string)}
}}

// reuseAtMost bounds what a session gives back for reuse: the maps of a session with more entries, or its
// calls' slice past this many, are left to the collector, so that a long session does not make every
// later one clear (or keep) room it does not use.
const reuseAtMost = 1 << 12

// release clears s and gives it back to claudeSessions. The record read is not s's any more.
func (s *claudeSession) release() {
	s.index.reset(reuseAtMost)
	if len(s.toolIDs) > reuseAtMost || len(s.strs) > reuseAtMost {
		s.toolIDs, s.strs = make(map[string]struct{}), make(map[string]string)
	} else {
		clear(s.toolIDs)
		clear(s.strs)
	}
	clear(s.calls) // no key, model or tools kept alive by the slice
	s.calls = s.calls[:0]
	if cap(s.calls) > reuseAtMost {
		s.calls = nil
	}
	s.rec, s.cost, s.last, s.scratch = agentlog.Record{}, nil, [2]string{}, claudeLine{}
	s.lastTime.n = 0
	clear(s.fast.blocks) // their strings may point into the last line read
	s.fast = fastLine{blocks: s.fast.blocks[:0]}
	claudeSessions.Put(s)
}

type claudeCostState struct {
	total  float64
	models map[string]ccMU
}

// ReadSession reads one Claude Code session: the transcript at transcriptPath and the transcripts of its
// subagents (<dir>/<session>/subagents/agent-*.jsonl, or <dir>/agent-*.jsonl naming the session). A bad
// line is a warning in the record; only a transcript that cannot be opened at all is an error.
func ReadSession(transcriptPath string, opt agentlog.Options) (agentlog.Record, error) {
	rec, err := readRecord(transcriptPath, named(transcriptPath), opt)
	rec.CheckHarnessFigure() // read alone: its calls are all it holds
	return rec, err
}

// decodeAll sends every line through the decoder, past the quick pass and the one-pass reader: the
// reference the tests hold those two to.
var decodeAll = false

// readSession is ReadSession, reading the subagents' transcripts t names. A transcript with no dated
// line is no session: an error says why.
func readSession(transcriptPath string, t transcript, opt agentlog.Options) (agentlog.Record, error) {
	rec, err := readRecord(transcriptPath, t, opt)
	switch {
	case err != nil || !rec.Start.IsZero():
		return rec, err
	case IsOrphanSummary(transcriptPath):
		return agentlog.Record{}, fmt.Errorf("%s: %w, skipped", transcriptPath, ErrOrphanSummary)
	}
	return agentlog.Record{}, agentlog.NoDatedLine(transcriptPath)
}

// readRecord reads the session's transcript and its subagents' into its record.
func readRecord(transcriptPath string, t transcript, opt agentlog.Options) (agentlog.Record, error) {
	stem := strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
	s := claudeSessions.Get().(*claudeSession)
	defer s.release()
	s.rec = agentlog.Record{SessionID: stem, Harness: string(harness.ClaudeCode)}
	if err := s.readFile(transcriptPath, true, opt); err != nil {
		return agentlog.Record{}, err
	}
	var subs []string
	if t.subagents {
		var err error
		subs, err = filepath.Glob(filepath.Join(filepath.Dir(transcriptPath), stem, "subagents", "agent-*.jsonl"))
		if err != nil {
			return agentlog.Record{}, fmt.Errorf("subagents of %s: %w", transcriptPath, err)
		}
	}
	sort.Strings(subs)
	subs = append(subs, t.beside...)
	for _, sub := range subs {
		if err := s.readFile(sub, false, opt); err != nil {
			s.rec.Warnings = append(s.rec.Warnings, err.Error()) // the session still counts without it
		}
	}
	s.rec.SetCalls(slices.Clone(s.calls)) // the record keeps its calls; the session's slice is reused
	tab := opt.Table()
	if s.canonOf != tab {
		s.canonOf, s.canon = tab, make(map[string]string)
	}
	s.rec.FinishWith(opt, s.canon)
	s.harnessFigure()
	return s.rec, nil
}

// readFile reads one transcript into the session. main: the session's own transcript, whose lines name
// the session and its cwd and whose cost-state lines are Claude Code's own figure.
func (s *claudeSession) readFile(path string, main bool, opt agentlog.Options) error {
	lr, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return err
	}
	defer closeFn()
	s.rec.Files = append(s.rec.Files, path)
	named := false
	if err := lr.Read(func(line []byte) {
		if !decodeAll && (named || !main) && s.rec.Cwd != "" && s.quick(line) {
			return
		}
		l, err := s.decode(line)
		if err != nil {
			lr.Malformed(err)
			return
		}
		if main && !named && l.SessionID != "" {
			s.rec.SessionID, named = strings.Clone(l.SessionID), true
		}
		s.line(l, main, lr)
	}); err != nil {
		return err
	}
	s.rec.Warnings = append(s.rec.Warnings, lr.Warnings()...)
	return nil
}

// decode reads a line into the session's scratch line: the one-pass reader's answer, else the decoder's.
// The line's strings point into line.
func (s *claudeSession) decode(line []byte) (*claudeLine, error) {
	l := &s.scratch
	*l = claudeLine{}
	if decodeAll || !s.fast.read(line, l) {
		*l, s.fast.parsed = claudeLine{}, false
		if err := parseLine(line, l); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// seen widens the session's time span to at.
func (s *claudeSession) seen(at time.Time) {
	s.rec.Began(at)
	if s.rec.Start.IsZero() || at.Before(s.rec.Start) {
		s.rec.Start = at
	}
	if at.After(s.rec.End) {
		s.rec.End = at
	}
}

// parseLine decodes one line without copying its strings: they point into the read buffer, so whatever
// outlives the line is cloned (or interned) where it is kept.
func parseLine(line []byte, v any) error {
	rest, err := json.Parse(line, v, json.ZeroCopy|json.DontMatchCaseInsensitiveStructFields)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return errors.New("data after the JSON value")
	}
	return nil
}

// intern is s's copy of a short string that many calls repeat (a model, a tool name, a session id).
func (s *claudeSession) intern(v string) string {
	for _, l := range s.last {
		if l == v {
			return l
		}
	}
	got, ok := s.strs[v]
	if !ok {
		got = strings.Clone(v)
		s.strs[got] = got
	}
	s.last[1], s.last[0] = s.last[0], got
	return got
}

// line takes what one line says. Unknown line types are skipped.
func (s *claudeSession) line(l *claudeLine, main bool, lr *agentlog.Lines) {
	if main && s.rec.Cwd == "" && l.Cwd != "" {
		s.rec.Cwd = strings.Clone(l.Cwd)
	}
	at, ok := s.parseTime(l.Timestamp)
	if l.Timestamp != "" && ok {
		s.seen(at)
	}
	switch l.Type {
	case "assistant":
		if i, ok := s.call(l, at); ok {
			s.tools(l, i, lr)
		}
	case "cost-state":
		if main && l.Total != nil {
			s.cost = &claudeCostState{total: *l.Total, models: make(map[string]ccMU, len(l.ModelUse))}
			for m, u := range l.ModelUse {
				s.cost.models[strings.Clone(m)] = u
			}
		}
	}
}

// call counts an assistant line's API call (calls.go): its number among the session's calls, false when
// the line is none.
func (s *claudeSession) call(l *claudeLine, at time.Time) (int, bool) {
	m := &l.Message
	if !isCall(m.Usage, m.Model) {
		return 0, false
	}
	u := m.Usage.usage()
	i, key := s.index.call(m.ID, l.RequestID, l.UUID)
	if key != "" {
		s.calls = append(s.calls, agentlog.Call{Key: key, Owner: s.intern(writer(l)), Model: s.intern(m.Model), At: at, Usage: u})
	} else if c := &s.calls[i]; larger(u, c.Usage) {
		c.Usage, c.Model = u, s.intern(m.Model)
	}
	return i, true
}

// writer is the session that made a line's call: the one a fork's copy names as its requester, else the
// line's own session.
func writer(l *claudeLine) string {
	if l.RequestSession != "" {
		return l.RequestSession
	}
	return l.SessionID
}

// tools adds the tools an assistant line asked for to its call i.
func (s *claudeSession) tools(l *claudeLine, i int, lr *agentlog.Lines) {
	m := &l.Message
	// Only tool_use blocks are counted; a text or thinking block (often the longest) is not decoded twice.
	if len(m.Content) == 0 || m.Content[0] != '[' || !bytes.Contains(m.Content, quotedToolUse) {
		return
	}
	blocks := s.fast.blocks
	if !s.fast.parsed {
		var decoded []block // on the heap only on this path
		if err := parseLine(m.Content, &decoded); err != nil {
			lr.Malformed(fmt.Errorf("message.content: %w", err))
			return
		}
		blocks = decoded
	}
	for _, b := range blocks {
		if b.Type != "tool_use" || b.Name == "" {
			continue
		}
		if b.ID != "" {
			if _, dup := s.toolIDs[b.ID]; dup {
				continue
			}
			s.toolIDs[strings.Clone(b.ID)] = struct{}{}
		}
		s.calls[i].Tools = append(s.calls[i].Tools, s.intern(b.Name))
	}
}

// harnessFigure keeps Claude Code's own cumulative cost-state as the record's harness figure, checked
// against the calls once each is counted once (agentlog.Record.CheckHarnessFigure): a fork's cost-state
// counts only the calls the fork made, not the history it copied. A difference usually means a subagent
// transcript is missing (an async agent still running, or deleted).
func (s *claudeSession) harnessFigure() {
	if s.cost == nil {
		return
	}
	f := agentlog.HarnessFigure{Source: "Claude Code's own cost-state", Logs: "the transcripts", Hint: "a subagent transcript missing?", USD: s.cost.total}
	for _, m := range s.cost.models {
		f.Tokens.Add(agentlog.Tokens{Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheWrite: m.CacheCreate})
	}
	s.rec.SetHarnessFigure(f)
}
