package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/internal/safefile"
)

// What the hooks read of a live session's transcript, through the session reader's own call counting
// (calls.go), so a turn's cost on the pane is the cost `saverd sessions` shows for its calls.

// TurnUsage adds up the API calls of the main loop the transcript at path records from the cursor from on
// (the turn's lines, written after it began), and the cursor after the last whole line read: a line still
// being written is left for the next read. Claude Code writes a response's content blocks one line each,
// and not always all before the turn's Stop hook runs: a line of the call the last read ended on
// (from.Last) counts only for what it adds. A subagent's lines (isSidechain: Claude Code 1.0 wrote them
// inline) are left to its own loop.
func (Harness) TurnUsage(path string, from bridge.Cursor) (bridge.Usage, bridge.Cursor, error) {
	return loopUsage(path, from, false)
}

// AgentUsage adds up a subagent's own transcript (SubagentStop's agent_transcript_path), whose lines are
// all its loop's.
func (Harness) AgentUsage(path string) (bridge.Usage, error) {
	u, _, err := loopUsage(path, bridge.Cursor{}, true)
	return u, err
}

// loopUsage is the usage of the calls from the cursor from on of the loop sidechain names.
func loopUsage(path string, from bridge.Cursor, sidechain bool) (bridge.Usage, bridge.Cursor, error) {
	s := claudeSessions.Get().(*claudeSession)
	defer s.release()
	held := from.Last.Key != ""
	if held { // the call the last read ended on is call 0, as that read counted it
		s.index.hold(from.Last.Key)
		s.calls = append(s.calls, agentlog.Call{Key: from.Last.Key, Model: from.Last.Model, Usage: from.Last.Usage})
	}
	end, err := bridge.EachLine(path, from.Off, func(line []byte) {
		if t := bytes.TrimSpace(line); len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' && !mayBeCall(t) {
			return // no API call in it (quick.go): most of a turn's bytes are tool results
		}
		l, err := s.decode(line)
		if err != nil || l.Type != "assistant" {
			return
		}
		if side, ok := sidechainOf(line); !ok || side != sidechain {
			return
		}
		at, _ := s.parseTime(l.Timestamp)
		s.call(l, at)
	})
	var u bridge.Usage
	for i := range s.calls {
		if c := &s.calls[i]; i == 0 && held {
			u.More(c.Model, c.Usage, from.Last.Usage)
		} else {
			u.Add(c.Model, c.Usage)
		}
	}
	next := bridge.Cursor{Off: end, Last: from.Last}
	if n := len(s.calls); n > 0 {
		c := &s.calls[n-1]
		next.Last = bridge.Call{Key: c.Key, Model: c.Model, Usage: c.Usage}
	}
	return u, next, err
}

// sidechainOf is a line's isSidechain (false when absent), and false when the line does not say it as a
// boolean: such a line is no call of either loop.
func sidechainOf(line []byte) (side, ok bool) {
	c := jsonscan.New(line)
	if !c.Enter() {
		return false, false
	}
	for {
		key, more, ok := c.Key()
		if !ok {
			return sidechainDecoded(line)
		}
		if !more {
			return false, true
		}
		if string(key) != "isSidechain" {
			if !c.Skip() {
				return sidechainDecoded(line)
			}
			continue
		}
		switch c.Peek() {
		case 't':
			ok := c.Literal("true")
			return ok, ok
		case 'f':
			return false, c.Literal("false")
		}
		return sidechainDecoded(line)
	}
}

// sidechainDecoded is sidechainOf's answer from the decoder, for a line the scan was not sure of (an
// escaped member name, null).
func sidechainDecoded(line []byte) (side, ok bool) {
	var l struct {
		IsSidechain bool `json:"isSidechain"`
	}
	if json.Unmarshal(line, &l) != nil {
		return false, false
	}
	return l.IsSidechain, true
}

// HeldTexts is those of texts the transcript at path carries since its last compaction (bridge.HeldTexts).
func (Harness) HeldTexts(path string, texts []string) []string {
	return bridge.HeldTexts(path, texts, compactionLine)
}

// compactionLine reports whether a line marks a compaction: Claude Code's compact_boundary system line.
func compactionLine(line []byte) bool {
	var l struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
	}
	return bytes.Contains(line, []byte("compact_boundary")) && json.Unmarshal(line, &l) == nil && isCompaction(l.Type, l.Subtype)
}

// isCompaction: a line of this type and subtype marks where Claude Code compacted the context.
func isCompaction(typ, subtype string) bool { return typ == "system" && subtype == "compact_boundary" }

// CallAgent is the running subagent (of agents) that made the tool call toolUseID, whose hook did not say
// (Claude Code's PostToolUse carries no agent id): the one whose own transcript records the call; "" for
// the main loop.
func (Harness) CallAgent(transcript, sessionID string, agents []string, toolUseID string) string {
	if transcript == "" {
		return ""
	}
	for _, id := range agents {
		if hasToolUse(agentTranscript(transcript, sessionID, id), toolUseID) {
			return id
		}
	}
	return ""
}

// agentTranscript is where Claude Code writes a subagent's own transcript.
func agentTranscript(mainTranscript, sessionID, agentID string) string {
	return filepath.Join(filepath.Dir(mainTranscript), sessionID, "subagents", "agent-"+agentID+".jsonl")
}

// hasToolUse reports whether a transcript records a tool_use block with this id. Only the file's tail is
// read, where a call that just finished was written.
func hasToolUse(path, toolUseID string) bool {
	if toolUseID == "" {
		return false
	}
	f, err := safefile.Open(path) // a regular file only: a FIFO would hold the hook for good
	if err != nil {
		return false
	}
	defer f.Close()
	const tail = 1 << 20
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	off := max(0, fi.Size()-tail)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return false
	}
	return namesID(buf, toolUseID)
}

// namesID reports whether text holds the member "id" with the value id, written compact or with spaces
// around its colon (a tool_use_id member is not one).
func namesID(text []byte, id string) bool {
	quoted := []byte(`"` + id + `"`)
	for at := 0; ; {
		i := bytes.Index(text[at:], quoted)
		if i < 0 {
			return false
		}
		i += at
		at = i + len(quoted)
		j := i
		for j > 0 && isJSONSpace(text[j-1]) {
			j--
		}
		if j == 0 || text[j-1] != ':' {
			continue
		}
		j--
		for j > 0 && isJSONSpace(text[j-1]) {
			j--
		}
		if bytes.HasSuffix(text[:j], []byte(`"id"`)) {
			return true
		}
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
