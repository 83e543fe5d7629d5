package opencode

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
)

// storageReader is the agentlog.Reader of OpenCode's older storage/ directory, one JSON file per
// session (session/<project>/<session>.json), message (message/<session>/<message>.json) and part
// (part/<message>/<part>.json): what OpenCode moves into its database when it first makes one.
type storageReader struct{}

// maxJSON bounds one storage file (a part holds a tool's whole output).
const maxJSON = 64 << 20

func (storageReader) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	st, err := readStorage(f.Path)
	if err != nil {
		return nil, err
	}
	return st.records(opt), nil
}

func readStorage(dir string) (*store, error) {
	if _, err := os.Stat(filepath.Join(dir, "message")); err != nil {
		return nil, err
	}
	st := &store{path: dir, tools: map[string][]string{}}
	infos, _ := filepath.Glob(filepath.Join(dir, "session", "*", "*.json"))
	for _, p := range infos {
		var s info
		if st.readJSON(p, &s) && s.ID != "" {
			st.sessions = append(st.sessions, s)
		}
	}
	msgs, _ := filepath.Glob(filepath.Join(dir, "message", "*", "*.json"))
	for _, p := range msgs {
		var m message
		if !st.readJSON(p, &m) {
			continue
		}
		if m.ID == "" {
			m.ID = trimExt(filepath.Base(p))
		}
		if m.SessionID == "" {
			m.SessionID = filepath.Base(filepath.Dir(p))
		}
		st.messages = append(st.messages, m)
		if m.Role == "assistant" {
			st.partTools(m.ID)
		}
	}
	slices.SortStableFunc(st.messages, func(a, b message) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Time.Created, b.Time.Created), cmp.Compare(a.ID, b.ID))
	})
	return st, nil
}

// partTools notes the tools a message's parts ran.
func (st *store) partTools(msg string) {
	parts, _ := filepath.Glob(filepath.Join(st.path, "part", msg, "*.json"))
	slices.Sort(parts) // part ids sort in the order they were made
	for _, p := range parts {
		var part struct {
			Type string `json:"type"`
			Tool string `json:"tool"`
		}
		if st.readJSON(p, &part) && part.Type == "tool" {
			st.tools[msg] = append(st.tools[msg], part.Tool)
		}
	}
}

// readJSON reads one storage file into v; one that cannot be read is a warning.
func (st *store) readJSON(path string, v any) bool {
	data, err := safefile.Read(path, maxJSON)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		st.warn = append(st.warn, fmt.Sprintf("%s: %v, skipped", path, err))
		return false
	}
	return true
}

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }
