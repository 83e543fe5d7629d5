package codex

import (
	"bytes"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/bridge"
)

// What the hooks read of a live session's rollout, through the session reader itself (read.go), so a
// turn's cost on the pane is the cost `saverd sessions` shows for its calls.

// TurnUsage adds up the API calls the rollout at path records from the cursor from on (the turn's lines,
// written after it began): one per token_usage_record (an older rollout's token_count whose total
// changed), each of its turn's model; and the cursor after the last whole line read, a line still being
// written left for the next read. A response is one line here, so no call continues past a cursor.
func (Harness) TurnUsage(path string, from bridge.Cursor) (bridge.Usage, bridge.Cursor, error) {
	s := newSession(path)
	end, err := bridge.EachLine(path, from.Off, func(line []byte) { s.read(line, func(error) {}) })
	s.resolve()
	var u bridge.Usage
	for i := range s.calls {
		u.Add(s.calls[i].Model, s.calls[i].Usage)
	}
	return u, bridge.Cursor{Off: end}, err
}

// AgentUsage adds up a subagent's own log: Codex writes none apart from its session's rollout, so one
// named is read whole.
func (h Harness) AgentUsage(path string) (bridge.Usage, error) {
	u, _, err := h.TurnUsage(path, bridge.Cursor{})
	return u, err
}

// HeldTexts is those of texts the rollout at path carries since its last compaction (bridge.HeldTexts).
func (Harness) HeldTexts(path string, texts []string) []string {
	return bridge.HeldTexts(path, texts, compactionLine)
}

// compacted is the type of the line a rollout marks a compaction with.
const compacted = "compacted"

// compactionLine reports whether a rollout line marks a compaction.
func compactionLine(line []byte) bool {
	var l codexLine
	return bytes.Contains(line, []byte(`"`+compacted+`"`)) && json.Unmarshal(line, &l) == nil && l.Type == compacted
}

// CallAgent is "": Codex's hooks name no subagent, and its rollout is its session's only log.
func (Harness) CallAgent(transcript, sessionID string, agents []string, toolUseID string) string {
	return ""
}
