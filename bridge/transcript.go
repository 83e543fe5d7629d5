package bridge

import (
	"time"

	"bytes"
	"encoding/json"
	"github.com/saverd/saverd/internal/safefile"
	"os"
	"path/filepath"
	"strings"
)

// Usage is what the API calls in one stretch of a transcript were billed, and the context the last of
// them held.
type Usage struct {
	Model       string
	Calls       int
	Input       int64 // input not read from cache
	Output      int64
	CacheRead   int64
	CacheCreate int64
	// Context is the tokens in the window after the newest call (its input, cached or not, plus its
	// output): how full the window is now. 0 when no call was read.
	Context int64
}

// line is the part of a transcript line (Claude Code's, or a Codex rollout's) the readers use.
type line struct {
	Type        string `json:"type"`
	RequestID   string `json:"requestId"`
	IsSidechain bool   `json:"isSidechain"`
	Message     *struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Model   string          `json:"model"`
		Usage   *apiUsage       `json:"usage"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
	// Codex: {"type": "turn_context" | "token_usage_record" | "response_item" | ..., "payload": {...}}
	Payload json.RawMessage `json:"payload"`
}

type apiUsage struct {
	Input       int64 `json:"input_tokens"`
	Output      int64 `json:"output_tokens"`
	CacheRead   int64 `json:"cache_read_input_tokens"`
	CacheCreate int64 `json:"cache_creation_input_tokens"`
}

func (u apiUsage) total() int64 { return u.Input + u.Output + u.CacheRead + u.CacheCreate }

// ReadUsage adds up the API calls a transcript records from byte offset from on, and returns the
// offset it read to. Claude Code writes one line per content block of a response, each repeating the
// response's usage: a call is counted once per message id and request id, with the largest usage any
// of its lines shows. Subagent (sidechain) lines are left to their own transcripts.
func ReadUsage(path string, from int64) (Usage, int64, error) {
	return readUsage(path, from, false)
}

// ReadSubagentUsage adds up a subagent's own transcript, whose lines are all sidechain lines.
func ReadSubagentUsage(path string) (Usage, int64, error) {
	return readUsage(path, 0, true)
}

func readUsage(path string, from int64, sidechain bool) (Usage, int64, error) {
	var u Usage
	type call struct {
		usage apiUsage
		model string
	}
	calls := map[string]int{}
	var list []call
	codex := codexUsage{}
	end, err := eachLine(path, from, func(b []byte) {
		var l line
		if json.Unmarshal(b, &l) != nil {
			return
		}
		if l.Payload != nil {
			codex.add(l)
			return
		}
		if l.Type != "assistant" || l.IsSidechain != sidechain || l.Message == nil || l.Message.Usage == nil {
			return
		}
		key := l.Message.ID + "\x00" + l.RequestID
		if i, seen := calls[key]; seen {
			if l.Message.Usage.total() > list[i].usage.total() {
				list[i].usage = *l.Message.Usage
			}
			return
		}
		calls[key] = len(list)
		list = append(list, call{usage: *l.Message.Usage, model: l.Message.Model})
	})
	if codex.calls > 0 {
		return codex.Usage, end, err
	}
	for _, c := range list {
		u.Calls++
		u.Input += c.usage.Input
		u.Output += c.usage.Output
		u.CacheRead += c.usage.CacheRead
		u.CacheCreate += c.usage.CacheCreate
		if c.model != "" && c.model != "<synthetic>" {
			u.Model = c.model
		}
	}
	if n := len(list); n > 0 {
		u.Context = list[n-1].usage.total()
	}
	return u, end, err
}

// codexUsage reads a Codex rollout's token records: one per completed model response, input counting
// its cached part (converted here to Claude's meaning, input not read from cache).
type codexUsage struct {
	Usage
	calls int
}

func (c *codexUsage) add(l line) {
	switch l.Type {
	case "turn_context":
		var p struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(l.Payload, &p) == nil && p.Model != "" {
			c.Model = p.Model
		}
	case "token_usage_record":
		var p struct {
			Usage struct {
				Input      int64 `json:"input_tokens"`
				Cached     int64 `json:"cached_input_tokens"`
				CacheWrite int64 `json:"cache_write_input_tokens"`
				Output     int64 `json:"output_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(l.Payload, &p) != nil {
			return
		}
		c.calls++
		c.Calls++
		c.Input += p.Usage.Input - p.Usage.Cached
		c.CacheRead += p.Usage.Cached
		c.CacheCreate += p.Usage.CacheWrite
		c.Output += p.Usage.Output
		c.Context = p.Usage.Input + p.Usage.Output
	}
}

// Size is a transcript's length now: where the next turn's lines will start.
func Size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// SubagentTranscript is where Claude Code writes a subagent's own transcript.
func SubagentTranscript(mainTranscript, sessionID, agentID string) string {
	return filepath.Join(filepath.Dir(mainTranscript), sessionID, "subagents", "agent-"+agentID+".jsonl")
}

// HasToolUse reports whether a transcript records a tool_use block with this id: Claude Code's hooks do
// not say which subagent made a call, and its transcript does. Only the file's tail is read, where a
// call that just finished was written.
func HasToolUse(path, toolUseID string) bool {
	if toolUseID == "" {
		return false
	}
	f, err := openRegular(path)
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

// ModelWindow is a model's context window in tokens, for a session whose harness does not say.
func ModelWindow(model string) int64 {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "[1m]"), strings.HasPrefix(m, "claude-opus-5-5"): // observed: 1M in Claude Code 2.1.328
		return 1_000_000
	case strings.HasPrefix(m, "gpt-"):
		return 272_000
	}
	return 200_000
}

// StartedAt is when a transcript's session began (Unix ms): the first timestamp in its opening lines.
func StartedAt(path string) (int64, bool) {
	head, err := safefile.Head(path, 64<<10)
	if err != nil {
		return 0, false
	}
	for _, l := range bytes.Split(head, []byte("\n")) {
		var line struct {
			Timestamp string `json:"timestamp"`
		}
		if json.Unmarshal(l, &line) != nil || line.Timestamp == "" {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, line.Timestamp); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}
