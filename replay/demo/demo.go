// Package demo is the sample session `saverd demo` plays through the daemon: a small debugging session —
// the whole suite after every edit, a 2000-line log read twice, two explore agents sent to read the same
// files — as host requests, with the judge's reply the host would have forked, then one fix the person
// sends and two turns it holds for.
package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/saverd/saverd/replay"
)

const (
	demoSession = "demo"
	demoCwd     = "/home/you/src/shop-api"
	demoStart   = int64(1_790_000_000_000) // a fixed clock, so the demo prints the same every time
)

// demoModel is the model the sample session runs on, so its judge run and its savings are priced.
const demoModel = "claude-sonnet-4-6"

// demoForkUsage is the judge fork's bill as a forked request runs: the parent's 250k of context read
// from its cache, the judge's own prompt as fresh input, and its short answer.
var demoForkUsage = map[string]any{"input_tokens": 8_000, "output_tokens": 1_200, "cache_read_input_tokens": 250_000, "cache_creation_input_tokens": 0}

// demoBuilder writes host requests with a clock that moves forward and remembers each row's seq.
type demoBuilder struct {
	sc    replay.Script
	at    int64
	seq   int
	rows  map[string]int
	calls int
}

func (b *demoBuilder) req(method string, params map[string]any, call bool) {
	params["at"] = b.at
	raw, _ := json.Marshal(params)
	var id json.RawMessage
	if call {
		b.calls++
		id = json.RawMessage(fmt.Sprintf("%d", b.calls))
	}
	b.sc.Request(method, id, raw)
}

func (b *demoBuilder) session(method string, extra map[string]any) {
	params := map[string]any{"sessionId": demoSession}
	for k, v := range extra {
		params[k] = v
	}
	b.req(method, params, true)
}

// output is a tool result of about n characters, its first line the head the pane quotes.
func output(head string, n int) string {
	var sb strings.Builder
	sb.WriteString(head)
	for sb.Len() < n {
		sb.WriteString("\n  ✓ ok")
	}
	return sb.String()[:n]
}

func (b *demoBuilder) tool(name, tool string, ms int64, args map[string]any, result any, text string) {
	b.at += ms
	b.seq++
	b.rows[name] = b.seq
	event := map[string]any{"tool": tool, "tool_use_id": fmt.Sprintf("toolu_demo_%02d", b.seq)}
	for k, v := range args {
		event[k] = v
	}
	b.session("tool.call", map[string]any{"ms": ms, "event": event, "result": map[string]any{"result": result, "text": text}})
}

func (b *demoBuilder) turn(answer string, ms int64, context int64) {
	b.at += 20_000
	b.session("turn.complete", map[string]any{
		"durationMs": ms, "answer": answer, "isAborted": false, "reason": "answer",
		"usage": map[string]any{"model": demoModel, "input_tokens": 42_000, "output_tokens": 3_000, "cache_read_input_tokens": 180_000,
			"cache_creation_input_tokens": 7_000},
		"context": map[string]any{"window": 1_000_000, "tokens": context, "percent": float64(context) / 10_000},
	})
}

func (b *demoBuilder) prompt(text string) {
	b.at += 60_000
	b.session("prompt.submit", map[string]any{"text": text, "origin": map[string]any{"kind": "composer"}})
	b.session("turn.start", map[string]any{})
}

func (b *demoBuilder) suite(name string, ms int64) {
	b.tool(name, "Bash", ms, map[string]any{"command": "bun test"}, map[string]any{"stdout": "212 pass"}, output(fmt.Sprintf("212 pass · 0 fail · ran 1284 expect() calls in %.2fs", float64(ms)/1000), 24_000))
}

func (b *demoBuilder) logRead(name string, agent string) {
	args := map[string]any{"command": "cat logs/api.log"}
	if agent != "" {
		args["agentId"] = agent
	}
	b.tool(name, "Bash", 4_000, args, map[string]any{}, output("GET /health 200 12ms · GET /v1/users 200 41ms · POST /v1/tokens 500 88ms", 80_000))
}

func (b *demoBuilder) explore(name, agent string) {
	for _, f := range []string{"src/auth/refresh.ts", "src/auth/session.ts", "src/auth/tokens.ts"} {
		b.tool(name+"-"+f, "Read", 300, map[string]any{"file_path": demoCwd + "/" + f, "agentId": agent}, map[string]any{"type": "text"}, output("export function", 6_000))
	}
	b.tool(name, "Agent", 90_000, map[string]any{"subagent_type": "explore", "description": "explore src/auth", "prompt": "Find where the token refresh is handled in src/auth and report the flow."},
		map[string]any{"agentId": agent, "resolvedModel": "claude-sonnet-4-6", "status": "completed", "totalTokens": 9_000, "toolStats": map[string]any{"editFileCount": 0}},
		output("Explored src/auth: 6 files read, the refresh flow lives in src/auth/refresh.ts", 36_000))
}

func (b *demoBuilder) edit(name string) {
	path := demoCwd + "/src/auth/refresh.ts"
	b.tool(name, "Edit", 800, map[string]any{"file_path": path, "old_string": "ttl: 60", "new_string": "ttl: 3600"},
		map[string]any{"filePath": path, "structuredPatch": []any{map[string]any{"lines": []any{"-  ttl: 60,", "+  ttl: 3600,"}}}}, "The file has been updated.")
}

// demoReply is the judge's answer the host's fork would have returned, citing the rows the demo made.
func demoReply(rows map[string]int) string {
	r := func(name string) string { return fmt.Sprintf("r%d", rows[name]) }
	reply := map[string]any{
		"focus":   "fixing the token refresh 500 in src/auth/refresh.ts",
		"time":    "Over half the wall-clock went to three full bun test runs and two explore agents that read the same six files.",
		"context": "Most of the context is two reads of the whole api log and three full suite outputs.",
		"findings": []any{
			map[string]any{
				"id": "reading:api-logs", "category": "reading",
				"kind":        "Claude keeps reading 2000 lines of api logs instead of grepping for the error",
				"evidence":    []string{r("log-1"), r("log-2")},
				"signature":   map[string]any{"tool": "Bash", "key": "read:cat logs/api.log"},
				"why":         "the whole log was read twice, once by an explore agent, when one grep would have shown the 500's traceback; nothing rewrote the log between the reads",
				"alternative": "grep -nE 'ERROR|Traceback' logs/api.log and read only the 50 lines around the match",
				"confidence":  0.8, "est_tokens_per_turn": nil, "proposal": nil,
			},
			map[string]any{
				"id": "multi-agent:re-explores", "category": "multi-agent",
				"kind":        "Claude keeps spawning a fresh explore agent that re-reads what the last one already reported",
				"evidence":    []string{r("agent-1"), r("agent-2")},
				"signature":   map[string]any{"tool": "Agent", "key": "agent:explore"},
				"why":         "two explore agents read the same three files in src/auth, and the second brief carried none of the first report",
				"alternative": "pass the previous explore agent's findings into the next brief instead of asking a new agent to read the same files",
				"confidence":  0.8, "est_tokens_per_turn": nil,
				"proposal": map[string]any{"kind": "claude-md", "title": "Reuse an explore agent's findings", "body": "Give a new explore agent the previous agent's findings; never ask it to re-read files another agent has already reported on."},
			},
			map[string]any{
				"id": "execution:full-suite", "category": "execution",
				"kind":        "Claude keeps running the whole bun test suite after every single-file edit",
				"evidence":    []string{r("suite-2"), r("suite-3")},
				"signature":   map[string]any{"tool": "Bash", "key": "test:bun test"},
				"why":         "the first run was the baseline; the suite then ran in full twice while only src/auth/refresh.ts changed between runs",
				"alternative": "run only the tests covering the files you changed; run the full suite once when the phase is done",
				"confidence":  0.9, "est_tokens_per_turn": nil, "proposal": nil,
			},
		},
	}
	b, _ := json.Marshal(reply)
	return string(b)
}

// Script is the whole sample session.
func Script() *replay.Script {
	b := &demoBuilder{at: demoStart, rows: map[string]int{}}
	b.req("initialize", map[string]any{"capabilities": map[string]any{"fork": true, "invalidate": false}}, true)
	b.session("session.start", map[string]any{"cwd": demoCwd, "usage": map[string]any{
		"window": 1_000_000, "compactAt": 900_000, "tokens": 60_000, "percent": 6,
		"breakdown": map[string]any{"memoryFiles": 3_200, "mcpTools": 5_400, "agents": 1_200},
	}})
	b.session("ui.columns", map[string]any{"columns": 160})
	b.prompt("POST /v1/tokens returns 500 after the refresh change — find it and fix it")
	b.suite("suite-1", 62_000)
	b.logRead("log-1", "")
	b.explore("agent-1", "sub-explore-1")
	b.logRead("log-2", "sub-explore-1")
	b.edit("edit-1")
	b.suite("suite-2", 59_000)
	b.turn("The refresh flow lives in src/auth/refresh.ts; the token TTL is the bug.", 228_000, 190_000)
	b.prompt("the 500 is still there on staging")
	b.explore("agent-2", "sub-explore-2")
	b.edit("edit-2")
	b.suite("suite-3", 71_000)
	b.turn("Suite is green again after the token fix.", 188_000, 250_000)
	b.session("command.run", map[string]any{"command": "saver", "args": "check"})
	b.session("command.run", map[string]any{"command": "saver", "args": "fix 3"})
	b.prompt("now add a regression test for the TTL")
	b.tool("narrow", "Bash", 3_000, map[string]any{"command": "bun test test/auth/refresh.test.ts"}, map[string]any{}, output("3 pass · 0 fail", 400))
	b.turn("Added test/auth/refresh.test.ts; it fails on the old TTL and passes now.", 40_000, 270_000)
	b.prompt("thanks — ship it")
	b.turn("Committed the fix and the test.", 20_000, 280_000)
	b.sc.ForkReply("judge", json.RawMessage(`"fork-1"`), mustJSON(map[string]any{"text": demoReply(b.rows), "usage": demoForkUsage}))
	return &b.sc
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the demo's own literals always marshal
	}
	return b
}
