package gemini

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/prices"
)

// unlogged is what every Gemini CLI record says its log leaves out.
const unlogged = "Gemini CLI's model router (one call before each prompt, to a flash-lite model) and its session summaries are billed but never written to the session log"

// line is what the readers need of one line of a session file; the other keys are skipped unread. A
// header has sessionId and projectHash; a message a string id; a metadata update $set (its whole-history
// snapshot, $set.messages, is never decoded: it can lack the tokens, and every message it holds was
// written on its own line before); a rewind $rewindTo. An older session file is one object with the
// header's keys and its messages in Messages.
type line struct {
	SessionID   string  `json:"sessionId"`
	ProjectHash string  `json:"projectHash"`
	StartTime   string  `json:"startTime"`
	LastUpdated string  `json:"lastUpdated"`
	Kind        string  `json:"kind"`
	ID          string  `json:"id"`
	Timestamp   string  `json:"timestamp"`
	Type        string  `json:"type"`
	Model       string  `json:"model"`
	Tokens      *tokens `json:"tokens"`
	Set         *set    `json:"$set"`
	RewindTo    *string `json:"$rewindTo"`
	Messages    []line  `json:"messages"`
	message
}

// message is a message's content: what the audit's history needs beyond the record's fields.
type message struct {
	Content   json.RawMessage `json:"content"` // the typed text's parts, or a tool's response
	ToolCalls []toolCall      `json:"toolCalls"`
}

type set struct {
	LastUpdated string `json:"lastUpdated"`
}

// tokens is a gemini message's usage, the API's usageMetadata renamed: input is the whole prompt (the
// cached part included), tool the tool-use prompt (billed as input, outside input), thoughts the thinking
// (billed as output, outside output).
type tokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
}

func (t *tokens) usage() prices.Usage {
	return prices.Usage{
		Input:     max(0, t.Input-t.Cached) + t.Tool,
		CacheRead: t.Cached,
		Output:    t.Output + t.Thoughts,
	}
}

type toolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args"`
	Result    []part          `json:"result"`
	Status    string          `json:"status"`
	Timestamp string          `json:"timestamp"`
}

type part struct {
	Text     *string `json:"text"`
	Response *struct {
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// msg is one message as its last record left it.
type msg struct {
	id    string
	typ   string
	at    time.Time
	model string
	tok   *tokens
	message
}

// session is one session id's messages across the files read, in the order their ids first appeared.
type session struct {
	id, projectHash string
	start, end      time.Time
	files           []string
	order           []string
	msgs            map[string]*msg
	warn            []string
}

// parse reads the files of one session (or of an older whole-session object) into its sessions, the
// first met first. full keeps each message's content and applies rewinds, for the history.
func parse(paths []string, opt agentlog.Options, full bool) []*session {
	p := parser{byID: map[string]*session{}, full: full}
	for _, path := range paths {
		p.file(path, opt)
	}
	return p.list
}

type parser struct {
	byID map[string]*session
	list []*session
	cur  *session
	full bool
	fast fastLine
}

// decodeAll sends every line through the decoder, past the quick pass and the one-pass reader: the
// tests compare the two ways of reading.
var decodeAll = false

func (p *parser) session(id, path string) *session {
	s := p.byID[id]
	if s == nil {
		s = &session{id: id, msgs: map[string]*msg{}}
		p.byID[id] = s
		p.list = append(p.list, s)
	}
	if !slices.Contains(s.files, path) {
		s.files = append(s.files, path)
	}
	return s
}

func (p *parser) file(path string, opt agentlog.Options) {
	p.cur = nil
	if filepath.Ext(path) == ".json" {
		p.whole(path)
		return
	}
	lines, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		p.orphan(path).warn = append(p.orphan(path).warn, err.Error())
		return
	}
	defer closeFn()
	var l line // one for every line (nothing keeps it): a line apiece on the heap was a sixth of the reader's allocation
	lines.Each(func(raw []byte) {
		if !p.full && !decodeAll && p.cur != nil && p.passOver(raw) {
			return
		}
		l = line{}
		if !p.full && !decodeAll && p.fast.read(raw, &l) {
			p.line(&l, path)
			return
		}
		l = line{}
		if err := p.decode(raw, &l); err != nil {
			lines.Malformed(err)
			return
		}
		p.line(&l, path)
	})
	if w := lines.Warnings(); len(w) > 0 {
		s := p.cur
		if s == nil {
			s = p.orphan(path)
		}
		s.warn = append(s.warn, w...)
	}
}

// decode decodes a line; without full, a message's content and tool calls' arguments and results are
// skipped by a smaller struct (they are most of a log's bytes).
func (p *parser) decode(raw []byte, l *line) error {
	if p.full {
		return json.Unmarshal(raw, l)
	}
	var short struct {
		line
		Content   skip `json:"content"`
		ToolCalls []struct {
			Name string `json:"name"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(raw, &short); err != nil {
		return err
	}
	*l = short.line
	for _, tc := range short.ToolCalls {
		l.ToolCalls = append(l.ToolCalls, toolCall{Name: tc.Name})
	}
	return nil
}

var (
	setMessages = []byte(`{"$set":{"messages":`)
	setPrefix   = []byte(`{"$set":`)
	typeKey     = []byte(`"type"`)
	timeKey     = []byte(`"timestamp"`)
	updatedKey  = []byte(`"lastUpdated"`)
)

// passOver takes a line the record reader needs only the time of, if that, without decoding it: a
// whole-history snapshot (never counted), a metadata update, a user message (a prompt, or a tool's
// response: most of a log's bytes), by the keys Gemini CLI writes first. Anything else, or laid out
// otherwise, is left to the decoder (false).
func (p *parser) passOver(raw []byte) bool {
	raw = agentlog.TrimBlanks(raw)
	switch {
	case bytes.HasPrefix(raw, setMessages):
		return true
	case bytes.HasPrefix(raw, setPrefix):
		if ts, ok := agentlog.StringField(raw, updatedKey); ok {
			p.cur.touch(ts)
			return true
		}
		return false
	}
	if typ, ok := agentlog.FieldBytes(raw, typeKey); !ok || string(typ) != "user" {
		return false
	}
	ts, ok := agentlog.StringField(raw, timeKey)
	if !ok {
		return false
	}
	p.cur.touch(ts)
	return true
}

// skip is a value the decoder reads past without keeping it.
type skip struct{}

func (*skip) UnmarshalJSON([]byte) error { return nil }

// orphan is the session of lines before any header: named by the file, so they are still counted.
func (p *parser) orphan(path string) *session {
	if p.cur == nil {
		p.cur = p.session("(no header) "+filepath.Base(path), path)
	}
	return p.cur
}

func (p *parser) line(l *line, path string) {
	switch {
	case l.SessionID != "" && l.ProjectHash != "":
		p.header(l, path)
	case l.Set != nil:
		if p.cur != nil {
			p.cur.touch(l.Set.LastUpdated)
		}
	case l.RewindTo != nil:
		if p.cur != nil && p.full {
			p.cur.rewind(*l.RewindTo)
		}
	case l.ID != "":
		p.orphan(path).add(l)
	}
}

// header starts (or goes on with) its session: a resume in the file's own minute writes a second header,
// whose startTime is the resume's, so the session's start is its earliest header's.
func (p *parser) header(l *line, path string) {
	s := p.session(l.SessionID, path)
	p.cur = s
	s.projectHash = l.ProjectHash
	if at, err := time.Parse(time.RFC3339Nano, l.StartTime); err == nil && (s.start.IsZero() || at.Before(s.start)) {
		s.start = at
	}
	s.touch(l.LastUpdated)
}

func (s *session) touch(ts string) {
	if at, err := time.Parse(time.RFC3339Nano, ts); err == nil && at.After(s.end) {
		s.end = at
	}
}

// rewind drops the message id and every message after it from the conversation, as Gemini CLI does on
// loading the log. Only the history applies it: the calls it drops were made, and billed.
func (s *session) rewind(id string) {
	i := slices.Index(s.order, id)
	if i < 0 {
		return
	}
	for _, gone := range s.order[i:] {
		delete(s.msgs, gone)
	}
	s.order = s.order[:i]
}

// add keeps a message's last record, in the place its id first took.
func (s *session) add(l *line) {
	at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	if at.After(s.end) {
		s.end = at
	}
	m := &msg{id: l.ID, typ: l.Type, at: at, model: l.Model, tok: l.Tokens, message: l.message}
	if _, seen := s.msgs[l.ID]; !seen {
		s.order = append(s.order, l.ID)
	}
	s.msgs[l.ID] = m
}

// adoptSubagents reads the sessions of the subagents the session started (chats/<session id>/*.jsonl)
// into it: their calls are the session's, as a Claude Code subagent's are its parent's.
func (s *session) adoptSubagents(opt agentlog.Options, full bool) {
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(s.files[0]), s.id, "*.jsonl"))
	if len(subs) == 0 {
		return
	}
	slices.Sort(subs)
	for _, sub := range parse(subs, opt, full) {
		s.files = append(s.files, sub.files...)
		s.warn = append(s.warn, sub.warn...)
		for _, id := range sub.order {
			key := sub.id + "/" + id
			s.order = append(s.order, key)
			s.msgs[key] = sub.msgs[id]
		}
		if sub.end.After(s.end) {
			s.end = sub.end
		}
	}
}

// whole reads an older session file: one JSON object holding the header's keys and every message.
func (p *parser) whole(path string) {
	data, err := safefile.Read(path, maxWhole)
	if err != nil {
		p.orphan(path).warn = append(p.orphan(path).warn, err.Error())
		return
	}
	var w line
	if err := json.Unmarshal(data, &w); err != nil || w.SessionID == "" {
		if err == nil {
			err = errors.New("no sessionId")
		}
		p.orphan(path).warn = append(p.orphan(path).warn, fmt.Sprintf("%s: not a Gemini CLI session: %v, skipped", path, err))
		return
	}
	p.header(&w, path)
	for i := range w.Messages {
		p.cur.add(&w.Messages[i])
	}
}

// calls is how many of the session's messages are API calls: gemini messages with tokens.
func (s *session) calls() int {
	n := 0
	for _, m := range s.msgs {
		if m.typ == "gemini" && m.tok != nil {
			n++
		}
	}
	return n
}

// maxWhole bounds an older whole-session file, which is read in one piece.
const maxWhole = 256 << 20

// records are the sessions' records: every gemini message with tokens is one API call, whatever a later
// rewind dropped from the conversation (the call was made, and billed).
func records(sessions []*session, root rootFunc, opt agentlog.Options) []agentlog.Record {
	out := make([]agentlog.Record, 0, len(sessions))
	for _, s := range sessions {
		r := agentlog.Record{SessionID: s.id, Harness: string(harness.Gemini), Start: s.start, End: s.end,
			Files: s.files, Unlogged: unlogged, Warnings: s.warn}
		r.Cwd = root(filepath.Dir(s.files[0]), s.projectHash)
		var pending []string // tools of a message with no tokens: given to the next call
		// Sized once: grown call by call, the calls were a quarter of the reader's allocation.
		calls := make([]agentlog.Call, 0, s.calls())
		for _, id := range s.order {
			m := s.msgs[id]
			if m.typ != "gemini" {
				continue
			}
			for _, tc := range m.ToolCalls {
				pending = append(pending, tc.Name)
			}
			if m.tok == nil {
				continue
			}
			if r.Start.IsZero() || m.at.Before(r.Start) {
				r.Start = m.at
			}
			calls = append(calls, agentlog.Call{Key: "gemini\x00" + s.id + "\x00" + id, Owner: s.id, Model: m.model, At: m.at,
				Usage: m.tok.usage(), Tools: pending})
			pending = nil
		}
		r.SetCalls(calls)
		r.Finish(opt)
		if r.Project == nil && r.Cwd == "" {
			name := filepath.Base(filepath.Dir(filepath.Dir(s.files[0]))) // tmp/<project>/chats
			r.Project = &name
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b agentlog.Record) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out
}
