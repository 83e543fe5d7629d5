package opencode

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/prices"
)

// info is a session's row (or, in storage/, its file).
type info struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Directory string `json:"directory"`
	Time      struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	} `json:"time"`
}

// message is a message's data: one API call when its role is assistant.
type message struct {
	ID         string   `json:"id"`
	SessionID  string   `json:"sessionID"`
	Role       string   `json:"role"`
	ModelID    string   `json:"modelID"`
	ProviderID string   `json:"providerID"`
	Cost       *float64 `json:"cost"`
	Tokens     *tokens  `json:"tokens"`
	Path       struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Time struct {
		Created int64 `json:"created"`
	} `json:"time"`
}

// tokens is OpenCode's count of a call's usage: input is the prompt less its cached part, output the
// completion less its reasoning.
type tokens struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

func (t *tokens) usage() prices.Usage {
	return prices.Usage{Input: t.Input, CacheRead: t.Cache.Read, CacheWrite5m: t.Cache.Write, Output: t.Output + t.Reasoning}
}

// store is what one database (or storage/ directory) holds, read whole: sessions, messages in time
// order, and the tools each message's parts ran.
type store struct {
	path     string
	sessions []info
	messages []message
	tools    map[string][]string // message id → tool names, in part order
	warn     []string
}

// dbReader is the agentlog.Reader of an OpenCode database.
type dbReader struct{}

func (dbReader) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	st, err := readDB(f.Path)
	if err != nil {
		return nil, err
	}
	return st.records(opt), nil
}

// readDB reads a database's sessions, messages and tool parts (see open); when the database changed
// while it was read in place, from a private copy instead.
func readDB(path string) (*store, error) {
	snap, err := open(path)
	if err != nil {
		return nil, err
	}
	st, err := snap.read(path)
	if err == nil && snap.changed() {
		snap.close()
		if snap, err = openCopy(path); err != nil {
			return nil, err
		}
		st, err = snap.read(path)
	}
	snap.close()
	return st, err
}

// read reads the store the snapshot holds.
func (s *snapshot) read(path string) (*store, error) {
	st := &store{path: path, tools: map[string][]string{}}
	if err := st.query(s.db, s.live); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var newer int
	if s.db.QueryRow(`SELECT count(*) FROM session_message`).Scan(&newer) == nil && newer > 0 {
		st.warn = append(st.warn, fmt.Sprintf("%s: %d rows in session_message, a table this reader does not know yet: their calls are not counted", path, newer))
	}
	return st, nil
}

// query reads the store's sessions, messages and tool parts; live names the database file when db has it
// open in place (immutable), whose messages and parts are then read from its pages (pages.go).
func (st *store) query(db *sql.DB, live string) error {
	rows, err := db.Query(`SELECT id, coalesce(parent_id, ''), directory, time_created, time_updated FROM session`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var s info
		if err := rows.Scan(&s.ID, &s.ParentID, &s.Directory, &s.Time.Created, &s.Time.Updated); err != nil {
			rows.Close()
			return err
		}
		st.sessions = append(st.sessions, s)
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	var msgs []msgRow
	if live != "" {
		msgs, err = messagesInPlace(db, live)
	}
	if live == "" || err != nil {
		if msgs, err = messagesOfSQLite(db); err != nil {
			return err
		}
	}
	st.messages = make([]message, 0, len(msgs))
	for _, r := range msgs {
		var m message
		if err := json.Unmarshal(r.data, &m); err != nil {
			st.warn = append(st.warn, fmt.Sprintf("%s: message %s: %v, skipped", st.path, r.id, err))
			continue
		}
		m.ID, m.SessionID = r.id, r.session // the row's, not the data's (which leaves them out)
		if m.Time.Created == 0 {
			m.Time.Created = r.created
		}
		st.messages = append(st.messages, m)
	}
	return st.toolParts(db, live)
}

var (
	typeKey = []byte(`"type"`)
	toolKey = []byte(`,"tool"`) // after a comma: "tool" is also the type's value
)

// toolParts notes the tool each tool part ran. OpenCode writes a part's type and tool first, so they are
// read from its first bytes rather than by parsing its JSON in SQLite (a part holds the tool's whole
// output: most of the database's bytes); a part laid out otherwise is asked of SQLite's JSON reader. A
// database read in place has its parts read from its pages (pages.go), else SQLite reads them.
func (st *store) toolParts(db *sql.DB, live string) error {
	var parts []partRow
	var err error
	if live != "" {
		parts, err = partsInPlace(db, live)
	}
	if live == "" || err != nil {
		if parts, err = partsOfSQLite(db); err != nil {
			return err
		}
	}
	var odd []string // parts whose first bytes do not say
	if len(st.tools) == 0 {
		st.tools = make(map[string][]string, len(st.messages))
	}
	for _, p := range parts {
		switch {
		case p.odd:
			odd = append(odd, p.id)
		case p.isTool:
			st.tools[p.msg] = append(st.tools[p.msg], p.tool)
		}
	}
	for _, id := range odd {
		var msg string
		var typ, tool sql.NullString
		err := db.QueryRow(`SELECT message_id, json_extract(data, '$.type'), json_extract(data, '$.tool') FROM part WHERE id = ?`, id).Scan(&msg, &typ, &tool)
		if err != nil {
			// One part SQLite cannot read as JSON is that part's loss, not the database's: its tool goes
			// uncounted, and the calls and every other part still are.
			st.warn = append(st.warn, fmt.Sprintf("%s: part %s: %v, its tool not counted", st.path, id, err))
			continue
		}
		if typ.String == "tool" {
			st.tools[msg] = append(st.tools[msg], tool.String)
		}
	}
	return nil
}

// partsOfSQLite is every part's row as SQLite reads it, in message and id order.
func partsOfSQLite(db *sql.DB) ([]partRow, error) {
	rows, err := db.Query(`SELECT id, message_id, substr(data, 1, 256) FROM part ORDER BY message_id, id`)
	if err != nil {
		return nil, err
	}
	var parts []partRow
	for rows.Next() {
		p := partRow{read: true}
		var head []byte
		if err := rows.Scan(&p.id, &p.msg, &head); err != nil {
			rows.Close()
			return nil, err
		}
		p.tool, p.isTool, p.odd = headTool(head)
		parts = append(parts, p)
	}
	return parts, closeRows(rows)
}

// headTool is what a part's first bytes say: the tool it ran (isTool), or odd when they do not say
// whether it is a tool's part, or which.
func headTool(head []byte) (tool string, isTool, odd bool) {
	typ, ok := agentlog.FieldBytes(head, typeKey)
	switch {
	case !ok:
		return "", false, true
	case string(typ) == "tool":
		tool, ok := agentlog.StringField(head, toolKey)
		return tool, ok, !ok
	}
	return "", false, false
}

func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// records are the store's sessions: each assistant message one call, with the tools its parts ran; a
// subagent's session (one with a parent) read into its top parent's, when that is in the store.
func (st *store) records(opt agentlog.Options) []agentlog.Record {
	byID := make(map[string]*info, len(st.sessions))
	for i := range st.sessions {
		byID[st.sessions[i].ID] = &st.sessions[i]
	}
	top := func(id string) string {
		for hops := 0; hops < 64; hops++ { // a cycle in the parent ids ends here
			s := byID[id]
			if s == nil || s.ParentID == "" || byID[s.ParentID] == nil {
				return id
			}
			id = s.ParentID
		}
		return id
	}
	recs := map[string]*agentlog.Record{}
	var order []string
	rec := func(id string) *agentlog.Record {
		if r := recs[id]; r != nil {
			return r
		}
		r := &agentlog.Record{SessionID: id, Harness: string(harness.OpenCode), Files: []string{st.path}, Unlogged: unlogged}
		if s := byID[id]; s != nil {
			r.Cwd = s.Directory
			r.Start, r.End = ms(s.Time.Created), ms(s.Time.Updated)
		}
		recs[id] = r
		order = append(order, id)
		return r
	}
	own := map[string]float64{} // OpenCode's own cost of each record's calls
	for _, s := range st.sessions {
		rec(top(s.ID))
	}
	tops, counts := st.callsPerRecord(top)
	calls := make(map[string][]agentlog.Call, len(counts))
	for i := range st.messages {
		m := &st.messages[i]
		if m.Role != "assistant" || m.Tokens == nil {
			continue
		}
		r := rec(tops[i])
		at := ms(m.Time.Created)
		if r.Start.IsZero() || at.Before(r.Start) {
			r.Start = at
		}
		if at.After(r.End) {
			r.End = at
		}
		if r.Cwd == "" {
			r.Cwd = m.Path.Cwd
		}
		cs := calls[tops[i]]
		if cs == nil {
			cs = make([]agentlog.Call, 0, counts[tops[i]])
		}
		calls[tops[i]] = append(cs, agentlog.Call{Key: "opencode\x00" + m.ID, Owner: m.SessionID, Model: m.ModelID, At: at,
			Usage: m.Tokens.usage(), Tools: st.tools[m.ID]})
		if m.Cost != nil {
			own[r.SessionID] += *m.Cost
		}
	}
	out := make([]agentlog.Record, 0, len(order))
	for _, id := range order {
		r := recs[id]
		r.SetCalls(calls[id])
		r.Finish(opt)
		if c, ok := own[id]; ok {
			c = float64(int64(c*1e9+0.5)) / 1e9
			r.Cost.Harness = &c
		}
		out = append(out, *r)
	}
	if len(out) > 0 {
		out[0].Warnings = append(out[0].Warnings, st.warn...)
	}
	slices.SortFunc(out, func(a, b agentlog.Record) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out
}

// callsPerRecord is the record (top's session) of each message that is a call, by the message's index,
// and how many calls each record has: each record's calls go in a slice sized once, where grown call by
// call they were the reader's largest allocation.
func (st *store) callsPerRecord(top func(string) string) (tops []string, counts map[string]int) {
	tops = make([]string, len(st.messages))
	counts = map[string]int{}
	for i := range st.messages {
		if m := &st.messages[i]; m.Role == "assistant" && m.Tokens != nil {
			tops[i] = top(m.SessionID)
			counts[tops[i]]++
		}
	}
	return tops, counts
}

// ms is a time OpenCode stores: milliseconds since the epoch.
func ms(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}
