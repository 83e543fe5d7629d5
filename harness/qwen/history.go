package qwen

import (
	"os"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
)

// ledgerTools names Qwen Code's tools as the ledger does (Claude Code's names and fields).
var ledgerTools = map[string]agentlog.LedgerTool{
	"run_shell_command": {Name: "Bash"},
	"read_file":         {Name: "Read", Keys: map[string]string{"absolute_path": "file_path"}},
	"write_file":        {Name: "Write"},
	"edit":              {Name: "Edit"},
	"glob":              {Name: "Glob"},
	"grep_search":       {Name: "Grep"},
}

// historyLine is what the audit reads of a chat record.
type historyLine struct {
	UUID       string `json:"uuid"`
	SessionID  string `json:"sessionId"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Provenance string `json:"provenance"`
	Cwd        string `json:"cwd"`
	Model      string `json:"model"`
	Message    struct {
		Parts []struct {
			Text *string `json:"text"`
			Call *struct {
				ID   string          `json:"id"`
				Name string          `json:"name"`
				Args json.RawMessage `json:"args"`
			} `json:"functionCall"`
			Response *struct {
				ID       string          `json:"id"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"message"`
	Usage  *usage `json:"usageMetadata"`
	Result *struct {
		CallID string `json:"callId"`
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

// History reads a chat log for an audit: each prompt the person typed (real_user) a turn, each
// functionCall a tool call with its tool_result, each assistant record with usageMetadata an API call.
func (Logs) History(path, sessionID string, opt agentlog.Options) (agentlog.Transcript, error) {
	if _, err := os.Lstat(path); err != nil {
		return agentlog.Transcript{}, err
	}
	lines, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return agentlog.Transcript{}, err
	}
	defer closeFn()
	h := agentlog.NewHistory(string(harness.Qwen), sessionID)
	seen := map[string]bool{} // assistant records by uuid: one written again is one call
	lines.Each(func(raw []byte) {
		var l historyLine
		if err := json.Unmarshal(raw, &l); err != nil {
			lines.Malformed(err)
			return
		}
		if sessionID != "" && l.SessionID != "" && l.SessionID != sessionID {
			return
		}
		h.SetCwd(l.Cwd)
		at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
		switch l.Type {
		case "user":
			if l.Provenance == "real_user" {
				h.Prompt(partsText(&l), at)
			}
		case "assistant":
			if l.Usage != nil && (l.UUID == "" || !seen[l.UUID]) {
				seen[l.UUID] = true
				h.Call(l.Model, l.Usage.usage(), at)
			}
			for _, p := range l.Message.Parts {
				if p.Call != nil {
					var in map[string]any
					_ = json.Unmarshal(p.Call.Args, &in) // arguments that are no object are no input
					tool, in := agentlog.Ledger(ledgerTools, p.Call.Name, in)
					h.ToolUse(p.Call.ID, tool, in, at)
				}
			}
		case "tool_result":
			for _, p := range l.Message.Parts {
				if p.Response != nil {
					failed := l.Result != nil && l.Result.Status != "" && l.Result.Status != "success"
					h.ToolResult(p.Response.ID, responseText(p.Response.Response), failed, at)
				}
			}
		}
	})
	h.Warn(lines.Warnings()...)
	return h.Transcript()
}

func partsText(l *historyLine) string {
	var b strings.Builder
	for _, p := range l.Message.Parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// responseText is a functionResponse's output (or error), else the response as it is.
func responseText(raw json.RawMessage) string {
	var r struct {
		Output *string `json:"output"`
		Error  *string `json:"error"`
	}
	switch {
	case json.Unmarshal(raw, &r) != nil:
	case r.Output != nil:
		return *r.Output
	case r.Error != nil:
		return *r.Error
	}
	return string(raw)
}
