package opencode

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
)

// ledgerTools names OpenCode's tools as the ledger does (Claude Code's names and fields).
var ledgerTools = map[string]agentlog.LedgerTool{
	"bash":  {Name: "Bash"},
	"read":  {Name: "Read", Keys: map[string]string{"filePath": "file_path"}},
	"write": {Name: "Write", Keys: map[string]string{"filePath": "file_path"}},
	"edit":  {Name: "Edit", Keys: map[string]string{"filePath": "file_path", "oldString": "old_string", "newString": "new_string"}},
	"glob":  {Name: "Glob"},
	"grep":  {Name: "Grep"},
}

// part is a message part as the history reads it: a text, or a tool call with its state.
type part struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Tool      string `json:"tool"`
	CallID    string `json:"callID"`
	State     struct {
		Status string         `json:"status"`
		Input  map[string]any `json:"input"`
		Output string         `json:"output"`
		Error  string         `json:"error"`
		Time   struct {
			Start int64 `json:"start"`
			End   int64 `json:"end"`
		} `json:"time"`
	} `json:"state"`
}

// History reads one session for an audit: each user message a turn (its typed text), each assistant
// message an API call of its turn with the tool calls its parts ran, each with its output and time.
func (Logs) History(path, sessionID string, opt agentlog.Options) (agentlog.Transcript, error) {
	var (
		st    *store
		parts map[string][]part
		err   error
	)
	if isStorage(path) {
		st, err = readStorage(path)
		if err == nil {
			parts = storageParts(st, sessionID)
		}
	} else {
		st, parts, err = readDBSession(path, sessionID)
	}
	if err != nil {
		return agentlog.Transcript{}, err
	}
	if sessionID == "" && len(st.sessions) > 0 {
		sessionID = st.sessions[0].ID
	}
	h := agentlog.NewHistory(string(harness.OpenCode), sessionID)
	h.Warn(st.warn...)
	found := false
	for _, s := range st.sessions {
		if s.ID == sessionID {
			h.SetCwd(s.Directory)
			found = true
		}
	}
	for i := range st.messages {
		m := &st.messages[i]
		if m.SessionID != sessionID {
			continue
		}
		found = true
		h.SetCwd(m.Path.Cwd)
		at := ms(m.Time.Created)
		switch m.Role {
		case "user":
			var text strings.Builder
			for _, p := range parts[m.ID] {
				if p.Type == "text" && !p.Synthetic {
					text.WriteString(p.Text)
				}
			}
			h.Prompt(text.String(), at)
		case "assistant":
			if m.Tokens != nil {
				h.Call(m.ModelID, m.Tokens.usage(), at)
			}
			for _, p := range parts[m.ID] {
				if p.Type == "tool" {
					toolHistory(h, &p)
				}
			}
		}
	}
	if !found {
		return agentlog.Transcript{}, fmt.Errorf("%s: no OpenCode session %s in it", path, sessionID)
	}
	return h.Transcript()
}

func toolHistory(h *agentlog.History, p *part) {
	tool, in := agentlog.Ledger(ledgerTools, p.Tool, p.State.Input)
	h.ToolUse(p.CallID, tool, in, ms(p.State.Time.Start))
	switch p.State.Status {
	case "completed":
		h.ToolResult(p.CallID, p.State.Output, false, ms(p.State.Time.End))
	case "error":
		h.ToolResult(p.CallID, p.State.Error, true, ms(p.State.Time.End))
	}
}

// readDBSession reads a database's sessions and messages, and one session's parts by message.
func readDBSession(path, sessionID string) (*store, map[string][]part, error) {
	snap, err := openCopy(path) // one session's audit: a copy is cheap, and always one state of the database
	if err != nil {
		return nil, nil, err
	}
	defer snap.close()
	st := &store{path: path, tools: map[string][]string{}}
	if err := st.query(snap.db, snap.live); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if sessionID == "" && len(st.sessions) > 0 {
		sessionID = st.sessions[0].ID
	}
	rows, err := snap.db.Query(`SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id`, sessionID)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	parts := map[string][]part{}
	for rows.Next() {
		var id, msg string
		var data []byte
		if err := rows.Scan(&id, &msg, &data); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		var p part
		if err := json.Unmarshal(data, &p); err != nil {
			st.warn = append(st.warn, fmt.Sprintf("%s: part %s: %v, skipped", path, id, err))
			continue
		}
		parts[msg] = append(parts[msg], p)
	}
	if err := closeRows(rows); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, parts, nil
}

// storageParts reads the parts of one session's messages from storage/part/<message>/.
func storageParts(st *store, sessionID string) map[string][]part {
	out := map[string][]part{}
	for _, m := range st.messages {
		if m.SessionID != sessionID {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(st.path, "part", m.ID, "*.json"))
		slices.Sort(files)
		for _, f := range files {
			var p part
			if st.readJSON(f, &p) {
				out[m.ID] = append(out[m.ID], p)
			}
		}
		slices.SortStableFunc(out[m.ID], func(a, b part) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out
}
