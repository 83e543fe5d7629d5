package bridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state/intake"
)

// payloads reads a fixture of hook payloads written by the real Claude Code.
func payloads(t *testing.T, name string) []Payload {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Payload
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var head struct {
			Event string `json:"hook_event_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			t.Fatal(err)
		}
		p, err := Parse(head.Event, bytes.Clone(sc.Bytes())) // the payload keeps slices of its line
		if err != nil {
			t.Fatalf("%s: %v", head.Event, err)
		}
		out = append(out, p)
	}
	return out
}

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name, event, payload, want string
	}{
		{"not json", "Stop", `{"session_id":`, "hook payload: not JSON (malformed or cut short)"},
		{"an array", "Stop", `[1]`, "hook payload: want a JSON object, got array"},
		{"wrong type", "Stop", `{"session_id": 5, "cwd": "/x"}`, "hook payload: session_id: want string, got number"},
		{"unknown event", "Nope", `{"session_id":"s","cwd":"/x"}`, `unknown hook event "Nope"`},
		{"event mismatch", "Stop", `{"session_id":"s","cwd":"/x","hook_event_name":"PostToolUse"}`, "hook for Stop got a PostToolUse payload"},
		{"no session", "Stop", `{"cwd":"/x"}`, "session_id: required"},
		{"no cwd", "Stop", `{"session_id":"s"}`, "cwd: required"},
		{"no tool", "PostToolUse", `{"session_id":"s","cwd":"/x"}`, "tool_name: required"},
		{"no agent", "SubagentStop", `{"session_id":"s","cwd":"/x"}`, "agent_id: required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.event, []byte(c.payload))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestToolCallsOfRealPayloads(t *testing.T) {
	want := map[string]struct {
		text    string
		isError bool
		ms      int64
	}{
		"toolu_a1": {text: "> test\n> node -e", ms: -1},
		"toolu_a2": {text: "1\texport function add(a,b){return a+b}\n2\t", ms: -1}, // as the transcript's tool_result shows it
		"toolu_a3": {text: "The file /home/dev/src/calc/src/math.js has been updated.", ms: -1},
		"toolu_a5": {text: "File created successfully at: /home/dev/src/calc/src/sub.js", ms: -1},
		"toolu_a6": {text: "Found 2 files\nsrc/sub.js\nsrc/math.js", ms: 27},
		"toolu_a7": {text: "Exit code 1\ncat: nonexistent.txt: No such file or directory", isError: true, ms: 10},
		"toolu_a8": {text: "Found 2 files\nsrc/math.js\nsrc/sub.js", ms: -1},
	}
	seen := 0
	for _, p := range payloads(t, "hooks-two-turns.ndjson") {
		if p.Event != PostToolUse && p.Event != PostToolUseFailure {
			continue
		}
		tc, err := ToolCallOf(p, "")
		if err != nil {
			t.Fatalf("%s: %v", p.ToolUseID, err)
		}
		if tc.Event.Tool() != p.ToolName || tc.Event.Get("tool_use_id") != p.ToolUseID {
			t.Errorf("%s: event %v", p.ToolUseID, tc.Event.Map())
		}
		if _, ok := tc.Event.Lookup("agentId"); ok {
			t.Errorf("%s: a main-loop call has an agentId", p.ToolUseID)
		}
		w, ok := want[p.ToolUseID]
		if !ok {
			continue
		}
		seen++
		if got := *tc.Result.Text; !strings.HasPrefix(got, w.text) {
			t.Errorf("%s: text %q, want it to start %q", p.ToolUseID, got, w.text)
		}
		if tc.Result.IsError != w.isError {
			t.Errorf("%s: isError %v", p.ToolUseID, tc.Result.IsError)
		}
		if w.ms >= 0 && tc.Ms != w.ms {
			t.Errorf("%s: ms %d, want %d", p.ToolUseID, tc.Ms, w.ms)
		}
		row := intake.RowOf(tc.Event, tc.Result, tc.Ms, 1)
		if row.Key == "" || row.Chars != int64(jstext.Len16(*tc.Result.Text)) {
			t.Errorf("%s: row %+v", p.ToolUseID, row)
		}
	}
	if seen != len(want) {
		t.Fatalf("checked %d calls, want %d", seen, len(want))
	}
}

func TestAgentCallOfRealPayloads(t *testing.T) {
	var pre, post Payload
	for _, p := range payloads(t, "hooks-subagent.ndjson") {
		if p.ToolName == "Agent" && p.Event == PreToolUse {
			pre = p
		}
		if p.ToolName == "Agent" && p.Event == PostToolUse {
			post = p
		}
	}
	prompt, ok := AgentPrompt(pre.ToolInput)
	if !ok || prompt != "Explore the repo and read a.txt" {
		t.Fatalf("AgentPrompt = %q, %v", prompt, ok)
	}
	in, err := WithPrompt(pre.ToolInput, prompt+"\n\nfix")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(in, &got); err != nil {
		t.Fatal(err)
	}
	if got["prompt"] != prompt+"\n\nfix" || got["description"] != "explore" || got["subagent_type"] != "general-purpose" {
		t.Fatalf("updatedInput %v: the whole input, prompt rewritten", got)
	}
	if id := AgentIDOf(post.ToolResponse); id != "abf4dbf9293122565" {
		t.Fatalf("AgentIDOf = %q", id)
	}
	tc, err := ToolCallOf(post, "")
	if err != nil {
		t.Fatal(err)
	}
	a, ok := intake.AgentOf(tc.Result.Result)
	if !ok || a.AgentID != "abf4dbf9293122565" {
		t.Fatalf("AgentOf = %+v, %v: the async launch must name its loop", a, ok)
	}
}

func TestOpenRefusesAFIFO(t *testing.T) {
	if _, err := EachLine("/dev/null", 0, func([]byte) {}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("EachLine(/dev/null) = %v", err)
	}
}

// TestSaverArgs: the hook bridge reads a command in every spelling internal/saverline knows (its own
// table tests the edges).
func TestSaverArgs(t *testing.T) {
	for _, name := range []string{"/saver", "/saver:saver", "$saver", "$saver:saver"} {
		if got, args, ok := SaverArgs(name + " fix 1 x"); !ok || got != name || args != "fix 1 x" {
			t.Errorf("SaverArgs(%q) = %q, %q, %v", name+" fix 1 x", got, args, ok)
		}
	}
	if _, _, ok := SaverArgs("please /saver"); ok {
		t.Error("a prompt that only mentions /saver is a command")
	}
}

func TestFitCutsAtALine(t *testing.T) {
	long := strings.Repeat("0123456789abcdefghi\n", 1000)
	got := Fit(long)
	if len(got) > MaxAnswerText || !strings.HasSuffix(got, "… (cut)") {
		t.Fatalf("Fit: %d bytes, tail %q", len(got), got[len(got)-20:])
	}
	if Fit("short") != "short" {
		t.Fatal("Fit changed a short text")
	}
}
