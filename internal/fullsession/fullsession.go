// Package fullsession generates the "full session" the speed targets are stated for — past RowCap rows,
// calls from LoopCap agent loops, MaxPatterns stored patterns whose keys recur — so the reducer's, the
// handlers' and the binary's benchmarks all measure the same session.
package fullsession

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/saverd/saverd/state"
)

// Calls is how many tool calls fill a session: past RowCap, so rows fold, and enough for every loop.
const Calls = state.RowCap + 500

// ToolCall is the params of tool.call number i of session: every tenth comes from one of LoopCap agent
// loops, every seventh runs a suite one of the stored patterns carries, the rest read files.
func ToolCall(session string, i int) []byte {
	event := map[string]any{"tool": "Bash", "tool_use_id": fmt.Sprintf("t%d", i), "command": fmt.Sprintf("cat src/file%d.ts", i%300)}
	if i%7 == 0 {
		event["command"] = fmt.Sprintf("npm test suite-%02d", i%state.MaxPatterns)
	}
	if i%10 == 0 {
		event["agentId"] = fmt.Sprintf("agent-%d", (i/10)%state.LoopCap)
	}
	p, err := json.Marshal(map[string]any{"sessionId": session, "at": 1_000_000 + i, "ms": 40, "event": event, "result": map[string]any{"text": strings.Repeat("x", 200)}})
	if err != nil {
		panic(err) // literals of our own always marshal
	}
	return p
}

// Replay is a full session and extra more tool.calls as NDJSON host requests (initialize, session.start,
// turn.start, then the calls), and how many tool.calls it holds: the recording the binary's floors and
// the replay's benchmarks play.
func Replay(extra int) (ndjson []byte, calls int) {
	var buf bytes.Buffer
	id := 0
	req := func(method string, params []byte) {
		id++
		fmt.Fprintf(&buf, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	}
	req("initialize", []byte(`{"capabilities":{"fork":false}}`))
	req("session.start", []byte(`{"sessionId":"s","cwd":"/bench/project","at":1000,"usage":{"window":1000000}}`))
	req("turn.start", []byte(`{"sessionId":"s","at":1001}`))
	calls = Calls + extra
	for i := range calls {
		req("tool.call", ToolCall("s", i))
	}
	return buf.Bytes(), calls
}

// Patterns is a project's registry at its cap: MaxPatterns habits, each keyed on one suite ToolCall runs.
func Patterns() []state.StoredPattern {
	patterns := make([]state.StoredPattern, 0, state.MaxPatterns)
	for i := 0; i < state.MaxPatterns; i++ {
		patterns = append(patterns, state.StoredPattern{
			ID: fmt.Sprintf("execution:habit-%02d", i), Category: "execution", Kind: fmt.Sprintf("Claude keeps running check %d", i),
			Signature: &state.Signature{Tool: "Bash", Key: fmt.Sprintf("test:npm test suite-%02d", i)}, Why: "ran twice",
			Alternative: "run it once per phase", Confidence: 0.8,
		})
	}
	return patterns
}
