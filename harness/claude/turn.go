package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/internal/safefile"
)

// What the hooks read of a live session's transcript, through the session reader's own call counting
// (calls.go), so a turn's cost on the pane is the cost `saverd sessions` shows for its calls.

// TurnUsage adds up the API calls of the main loop the transcript at path records from byte offset from
// on (the turn's lines, written after it began), and the offset after the last whole line read: a line
// still being written is left for the next read. A subagent's lines (isSidechain: Claude Code 1.0 wrote
// them inline) are left to its own loop.
func (Harness) TurnUsage(path string, from int64) (bridge.Usage, int64, error) {
	return loopUsage(path, from, false)
}

// AgentUsage adds up a subagent's own transcript (SubagentStop's agent_transcript_path), whose lines are
// all its loop's.
func (Harness) AgentUsage(path string) (bridge.Usage, error) {
	u, _, err := loopUsage(path, 0, true)
	return u, err
}

// loopUsage is the usage of the calls from byte from on of the loop sidechain names.
func loopUsage(path string, from int64, sidechain bool) (bridge.Usage, int64, error) {
	s := claudeSessions.Get().(*claudeSession)
	defer s.release()
	end, err := bridge.EachLine(path, from, func(line []byte) {
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
		u.Add(s.calls[i].Model, s.calls[i].Usage)
	}
	return u, end, err
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
