package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The labelled sessions (testdata/labelled/*.json) are sessions written by hand with known wastes and
// known look-alikes: each call names the detector whose waste it is (`waste`; `beyond` when the detector
// is known to leave it alone), or the one it looks like waste to though it is not (`like`, for the
// reader). A test renders each into the log its harness
// writes — a Claude Code transcript as 2.1 writes it, a Codex rollout as 0.77 writes it — and audits
// that file, so what is measured is what `saverd audit` does with it.

// labelled is one session of the set.
type labelled struct {
	Harness string          `json:"harness"` // claude-code (the default) or codex
	Cwd     string          `json:"cwd"`
	Note    string          `json:"note"`
	Turns   []labelledTurn  `json:"turns"`
	calls   []*labelledCall // every call, in order, with its id
}

type labelledTurn struct {
	Prompt string          `json:"prompt"`
	Calls  []*labelledCall `json:"calls"`
}

// labelledCall is one tool call: its input, its output (a text, or `out` characters of one), how long
// it ran, whether it failed, the harness's structured result, and its label.
type labelledCall struct {
	Tool   string         `json:"tool"`
	Input  map[string]any `json:"input"`
	Out    int            `json:"out"`
	Text   string         `json:"text"`
	Ms     int64          `json:"ms"`
	Err    bool           `json:"err"`
	Result map[string]any `json:"result"`
	Waste  string         `json:"waste"`
	Like   string         `json:"like"`
	// Beyond marks a waste its detector is known to leave alone (precision first): it counts against
	// recall, and is not an error.
	Beyond bool `json:"beyond"`
	id     string
}

func readLabelled(t *testing.T, path string) *labelled {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s labelled
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if s.Cwd == "" {
		s.Cwd = "/home/dev/src/shop"
	}
	for _, turn := range s.Turns {
		for _, c := range turn.Calls {
			c.id = "call_" + strconv.Itoa(len(s.calls)+1)
			if s.Harness != "codex" {
				c.id = "toolu_" + strconv.Itoa(len(s.calls)+1)
			}
			s.calls = append(s.calls, c)
		}
	}
	return &s
}

// output is the call's output text: its own, or out characters of numbered lines.
func (c *labelledCall) output() string {
	if c.Text != "" || c.Out == 0 {
		return c.Text
	}
	var b strings.Builder
	for n := 1; b.Len() < c.Out; n++ {
		fmt.Fprintf(&b, "line %05d of what the command printed\n", n)
	}
	return b.String()[:c.Out]
}

// write renders the session into dir as its harness would have written it and returns the file.
func (s *labelled) write(t *testing.T, dir, name string) string {
	t.Helper()
	var lines []map[string]any
	file := filepath.Join(dir, name+".jsonl")
	if s.Harness == "codex" {
		lines = s.rollout()
		file = filepath.Join(dir, "rollout-2026-12-01T10-00-00-01a23400-0000-7000-8000-"+fmt.Sprintf("%012d", len(name))+".jsonl")
	} else {
		lines = s.transcript()
	}
	var b strings.Builder
	for _, l := range lines {
		raw, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// clock hands out the session's timestamps: each call runs for its ms, half a second passes between.
type clock struct{ at time.Time }

func (c *clock) now() string   { return c.at.UTC().Format("2006-01-02T15:04:05.000Z") }
func (c *clock) pass(ms int64) { c.at = c.at.Add(time.Duration(ms) * time.Millisecond) }

func startClock() *clock { return &clock{at: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)} }

const labelledSession = "5e55a0b1-0000-4000-8000-000000000026"

// transcript is the session as Claude Code 2.1 writes it: a user line per prompt, one assistant line per
// tool_use block, a user line with its tool_result and the structured toolUseResult.
func (s *labelled) transcript() []map[string]any {
	clk := startClock()
	var out []map[string]any
	line := func(typ string, m map[string]any) {
		m["type"], m["timestamp"], m["cwd"], m["sessionId"] = typ, clk.now(), s.Cwd, labelledSession
		m["isSidechain"], m["userType"], m["version"] = false, "external", "2.1.14"
		out = append(out, m)
	}
	usage := map[string]any{"input_tokens": 1200, "output_tokens": 80, "cache_read_input_tokens": 20000, "cache_creation_input_tokens": 400}
	msg := 0
	assistant := func(content []any) {
		msg++
		line("assistant", map[string]any{"requestId": "req_" + strconv.Itoa(msg), "message": map[string]any{
			"id": "msg_" + strconv.Itoa(msg), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
			"content": content, "usage": usage}})
	}
	for _, turn := range s.Turns {
		line("user", map[string]any{"message": map[string]any{"role": "user", "content": turn.Prompt}})
		clk.pass(300)
		for _, c := range turn.Calls {
			assistant([]any{map[string]any{"type": "tool_use", "id": c.id, "name": c.Tool, "input": c.Input}})
			clk.pass(c.Ms)
			line("user", map[string]any{"message": map[string]any{"role": "user", "content": []any{map[string]any{
				"tool_use_id": c.id, "type": "tool_result", "content": c.output(), "is_error": c.Err}}},
				"toolUseResult": c.toolUseResult()})
			clk.pass(500)
		}
		assistant([]any{map[string]any{"type": "text", "text": "Done."}})
		clk.pass(60_000)
	}
	return out
}

// toolUseResult is the structured result Claude Code keeps beside a tool_result, by tool.
func (c *labelledCall) toolUseResult() any {
	if c.Err {
		return "Error: " + c.output()
	}
	r := map[string]any{}
	path, _ := c.Input["file_path"].(string)
	switch c.Tool {
	case "Bash":
		r = map[string]any{"stdout": c.output(), "stderr": "", "interrupted": false, "isImage": false}
	case "Read":
		r = map[string]any{"type": "text", "file": map[string]any{"filePath": path, "content": c.output()}}
	case "Edit", "MultiEdit":
		r = map[string]any{"filePath": path, "structuredPatch": []any{}, "userModified": false}
	case "Write":
		r = map[string]any{"type": "create", "filePath": path, "content": c.Input["content"]}
	}
	for k, v := range c.Result {
		r[k] = v
	}
	return r
}

// rollout is the session as Codex 0.77 writes it: session_meta, and per turn its context, task_started,
// the prompt, each call as a function_call (a shell command through exec_command) or an apply_patch
// custom_tool_call with its output, the token count after each response, and task_complete.
func (s *labelled) rollout() []map[string]any {
	clk := startClock()
	var out []map[string]any
	line := func(typ string, payload map[string]any) {
		out = append(out, map[string]any{"timestamp": clk.now(), "type": typ, "payload": payload})
	}
	line("session_meta", map[string]any{"id": "01a23400-0000-7000-8000-000000000026", "timestamp": clk.now(), "cwd": s.Cwd,
		"originator": "codex_cli_rs", "cli_version": "0.77.0"})
	var total int64
	tokens := func() {
		last := map[string]any{"input_tokens": 21000, "cached_input_tokens": 20000, "output_tokens": 80, "reasoning_output_tokens": 0, "total_tokens": 21080}
		total += 21080
		line("event_msg", map[string]any{"type": "token_count", "info": map[string]any{"last_token_usage": last,
			"total_token_usage": map[string]any{"input_tokens": total, "cached_input_tokens": 0, "output_tokens": 0, "total_tokens": total}}})
	}
	for i, turn := range s.Turns {
		line("turn_context", map[string]any{"turn_id": strconv.Itoa(i + 1), "cwd": s.Cwd, "model": "gpt-5.1-codex"})
		line("event_msg", map[string]any{"type": "task_started", "turn_id": strconv.Itoa(i + 1)})
		line("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": turn.Prompt}}})
		clk.pass(300)
		for _, c := range turn.Calls {
			if c.Tool == "apply_patch" {
				line("response_item", map[string]any{"type": "custom_tool_call", "name": "apply_patch", "call_id": c.id, "input": c.Input["patch"]})
			} else {
				args, _ := json.Marshal(map[string]any{"cmd": c.Input["command"]})
				line("response_item", map[string]any{"type": "function_call", "name": "exec_command", "call_id": c.id, "arguments": string(args)})
			}
			tokens()
			clk.pass(c.Ms)
			kind := "function_call_output"
			if c.Tool == "apply_patch" {
				kind = "custom_tool_call_output"
			}
			line("response_item", map[string]any{"type": kind, "call_id": c.id, "output": c.output()})
			clk.pass(500)
		}
		line("response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": "Done."}}})
		tokens()
		line("event_msg", map[string]any{"type": "task_complete", "turn_id": strconv.Itoa(i + 1)})
		clk.pass(60_000)
	}
	return out
}
