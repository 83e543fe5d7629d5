package detect

import (
	"strconv"
	"strings"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// session builds a ledger the way the daemon does (intake.RowOf on the call's event and result), turn by
// turn, with what the rows leave out kept as Calls.
type session struct {
	rows  []state.Row
	calls map[string]Call
	turn  int
	comps []int
	cwd   string
}

func newSession() *session { return &session{calls: map[string]Call{}, turn: 1, cwd: "/home/dev/shop"} }

// opt changes one call: its result, its loop, its time.
type opt func(*callSpec)

type callSpec struct {
	result  map[string]any
	isError bool
	deny    bool
	ms      int64
	agent   string
}

func failed(c *callSpec)                { c.isError = true }
func denied(c *callSpec)                { c.deny = true }
func lasting(ms int64) opt              { return func(c *callSpec) { c.ms = ms } }
func by(agent string) opt               { return func(c *callSpec) { c.agent = agent } }
func result(r map[string]any) opt       { return func(c *callSpec) { c.result = r } }
func (s *session) prompt()              { s.turn++ }
func (s *session) compact()             { s.comps = append(s.comps, s.turn) }
func (s *session) detect() []Finding    { return Run(s.session()) }
func (s *session) repeats() []Repeat    { return Repeats(s.session()) }
func (s *session) handle(id string) int { return s.rowOf(id).Seq }

func (s *session) session() Session {
	return Session{Rows: s.rows, Compactions: s.comps, Cwd: s.cwd, Calls: s.calls}
}

func (s *session) rowOf(id string) *state.Row {
	for i := range s.rows {
		if s.rows[i].ID == id {
			return &s.rows[i]
		}
	}
	return nil
}

// call records one tool call whose output is text; it returns the call's id.
func (s *session) call(tool string, input map[string]any, text string, opts ...opt) string {
	var c callSpec
	for _, o := range opts {
		o(&c)
	}
	id := "toolu_" + strconv.Itoa(len(s.rows)+1)
	ev := intake.ToolEventOf(input)
	ev.Set("tool", tool)
	ev.Set("tool_use_id", id)
	if c.agent != "" {
		ev.Set("agentId", c.agent)
	}
	res := intake.ToolResult{Result: c.result, Text: &text, IsError: c.isError}
	if c.deny {
		res.Deny = new("no")
	}
	row := intake.RowOf(ev, res, c.ms, s.turn)
	row.Seq = len(s.rows) + 1
	s.rows = append(s.rows, row)
	call := Call{Input: intake.InputKey(input)}
	if cmd, ok := input["command"].(string); ok && tool == "Bash" {
		call.Command = cmd
	}
	s.calls[id] = call
	return id
}

func (s *session) bash(cmd string, chars int, opts ...opt) string {
	return s.call("Bash", map[string]any{"command": cmd}, strings.Repeat("x", chars), opts...)
}

func (s *session) read(path string, chars int, opts ...opt) string {
	return s.call("Read", map[string]any{"file_path": path}, strings.Repeat("x", chars), opts...)
}

func (s *session) readRange(path string, offset, limit int) string {
	return s.call("Read", map[string]any{"file_path": path, "offset": float64(offset), "limit": float64(limit)}, strings.Repeat("x", 3000))
}

func (s *session) edit(path, old, new string, opts ...opt) string {
	opts = append([]opt{result(map[string]any{"filePath": path, "structuredPatch": []any{}})}, opts...)
	return s.call("Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new}, "The file has been updated.", opts...)
}

func (s *session) grep(pattern, path string, extra map[string]any, chars int) string {
	in := map[string]any{"pattern": pattern, "path": path}
	for k, v := range extra {
		in[k] = v
	}
	return s.call("Grep", in, strings.Repeat("x", chars))
}

func (s *session) todo(items ...string) string {
	var todos []any
	for _, it := range items {
		todos = append(todos, map[string]any{"content": it, "status": "pending", "activeForm": it})
	}
	return s.call("TodoWrite", map[string]any{"todos": todos}, "Todos have been modified successfully.")
}

func (s *session) patch(body string) string {
	return s.call("apply_patch", map[string]any{"command": body}, "Success. Updated the following files:")
}

// ids is the ids of the findings, in order.
func ids(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// of is the findings of one detector.
func of(fs []Finding, d Detector) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Detector == d {
			out = append(out, f)
		}
	}
	return out
}
