// Command min is the work floor of saverd's benchmarks: the least a daemon can do for a tool.call. It
// decodes the same fields saverd reads (with the decoder saverd's params use), classifies and keys the
// command, measures the result text, appends a row to a ledger capped at 2,000 rows (older ones counted
// per key), and answers an empty result; any other request gets the empty result too.
package main

import (
	"bufio"
	"os"
	"strings"
	"unicode/utf8"

	json "github.com/segmentio/encoding/json"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
		At        int64  `json:"at"`
		Ms        int64  `json:"ms"`
		Event     struct {
			Tool      string `json:"tool"`
			ToolUseID string `json:"tool_use_id"`
			Command   string `json:"command"`
			AgentID   string `json:"agentId"`
		} `json:"event"`
		Result struct {
			Text string `json:"text"`
		} `json:"result"`
	} `json:"params"`
}

type row struct {
	id, tool, key, agent, head string
	ms, chars                  int64
}

const rowCap = 2000

type session struct {
	rows   []row
	folded map[string]int
}

func main() {
	sessions := map[string]*session{}
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 1 {
			var req request
			if json.Unmarshal(line, &req) == nil {
				if req.Method == "tool.call" {
					apply(sessions, &req)
				}
				if len(req.ID) > 0 {
					w.WriteString(`{"id":`)
					w.Write(req.ID)
					w.WriteString(`,"jsonrpc":"2.0","result":{}}` + "\n")
				}
			}
			if r.Buffered() == 0 {
				w.Flush()
			}
		}
		if err != nil {
			w.Flush()
			return
		}
	}
}

func apply(sessions map[string]*session, req *request) {
	p := &req.Params
	s := sessions[p.SessionID]
	if s == nil {
		s = &session{folded: map[string]int{}}
		sessions[p.SessionID] = s
	}
	agent := p.Event.AgentID
	if agent == "" {
		agent = "main"
	}
	head := p.Result.Text
	if len(head) > 80 {
		head = strings.Clone(head[:80])
	}
	s.rows = append(s.rows, row{id: p.Event.ToolUseID, tool: p.Event.Tool, key: keyOf(p.Event.Command), agent: agent, head: head,
		ms: p.Ms, chars: int64(utf8.RuneCountInString(p.Result.Text))})
	if over := len(s.rows) - rowCap; over > 0 {
		for _, old := range s.rows[:over] {
			s.folded[old.tool+"\t"+old.key]++
		}
		s.rows = s.rows[over:] // re-sliced, as saverd's ledger is: appends reallocate now and then
	}
}

// keyOf is the command's class and its text with runs of spaces collapsed, as a ledger key.
func keyOf(command string) string {
	cls := "other"
	switch first, _, _ := strings.Cut(strings.TrimSpace(command), " "); first {
	case "npm", "go", "pytest", "cargo":
		cls = "test"
	case "cat", "head", "tail", "less":
		cls = "read"
	case "grep", "rg", "find":
		cls = "search"
	case "git":
		cls = "git"
	}
	return cls + ":" + strings.Join(strings.Fields(command), " ")
}
