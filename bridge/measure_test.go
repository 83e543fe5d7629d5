package bridge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/state/intake"
)

// TestMeasuredOutputIsTheDecodedOne: a long output measured where it lies makes the row a whole decode
// makes (the text's length and head, flags, lines, paths), for every shape the text is made of; and a
// response this reader is unsure of is decoded whole.
func TestMeasuredOutputIsTheDecodedOne(t *testing.T) {
	big := func(line string, n int) string { return strings.Repeat(line, n) }
	logLines := big("2026-12-01 10:00:00 INFO a line of the log, \"quoted\" and\ttabbed\n", 2000) // ~130 KB
	wide := big("naïve façade — 𝄞 emoji 🎉 and \\ back\n", 4000)
	controls := big("\x01", 5000) + big("x", 70_000) // past the start a head is made from
	cases := []struct {
		name     string
		tool     string
		response any
		measured bool // the measured reader takes it (else it falls back)
	}{
		{"Bash stdout", "Bash", map[string]any{"stdout": logLines, "stderr": "", "interrupted": false}, true},
		{"Bash stdout and stderr", "Bash", map[string]any{"stdout": logLines, "stderr": "warning: x\n"}, true},
		{"Bash stderr only", "Bash", map[string]any{"stdout": "", "stderr": wide}, true},
		{"Bash short stdout, long stderr", "Bash", map[string]any{"stdout": "ok", "stderr": logLines}, true},
		{"Bash in the background, timed out", "Bash", map[string]any{"stdout": logLines, "backgroundTaskId": "b1", "timedOutAfterMs": 120000, "persistedOutputSize": 99}, true},
		{"Read from line 1", "Read", map[string]any{"type": "text", "file": map[string]any{"filePath": "/p/a.log", "content": logLines, "numLines": 2000, "startLine": 1, "totalLines": 2000}}, true},
		{"Read from line 9990", "Read", map[string]any{"type": "text", "file": map[string]any{"filePath": "/p/a.log", "content": wide, "startLine": 9990, "truncatedByTokenCap": true}}, true},
		{"Grep content", "Grep", map[string]any{"mode": "content", "content": logLines, "numLines": 2000}, true},
		{"an MCP tool's output", "mcp__logs__tail", map[string]any{"output": wide}, true},
		{"an MCP tool's result after a short output", "mcp__x__y", map[string]any{"output": "short", "result": logLines}, true},
		{"Codex: the output a string", "shell", logLines, true},
		{"a head of control characters", "Bash", map[string]any{"stdout": "\x01\x02" + logLines}, true},
		{"a start of nothing but control characters", "Bash", map[string]any{"stdout": controls}, false},
		{"a name given twice", "Bash", json.RawMessage(`{"stdout":"` + big("a", 70_000) + `","stdout":"b"}`), false},
		{"Write: its content counts lines", "Write", map[string]any{"filePath": "/p/a", "content": logLines, "type": "create"}, false},
		{"Agent blocks", "Agent", map[string]any{"content": []any{map[string]any{"type": "text", "text": logLines}}, "status": "completed"}, false},
		{"no text member: the record as JSON", "mcp__x__y", map[string]any{"blob": logLines}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.response)
			if err != nil {
				t.Fatal(err)
			}
			input, _ := json.Marshal(map[string]any{"command": "cat a.log", "file_path": "/p/a.log", "pattern": "x"})
			p := Payload{Event: PostToolUse, ToolName: tc.tool, ToolUseID: "toolu_1", ToolInput: input, ToolResponse: raw}
			if _, ok := measuredCall(tc.tool, raw); ok != tc.measured {
				t.Fatalf("measured = %v, want %v", ok, tc.measured)
			}
			got, err := toolCallOf(p, "", true)
			if err != nil {
				t.Fatal(err)
			}
			want, err := toolCallOf(p, "", false)
			if err != nil {
				t.Fatal(err)
			}
			gr, wr := intake.RowOf(got.Event, got.Result, 0, 1), intake.RowOf(want.Event, want.Result, 0, 1)
			if !reflect.DeepEqual(gr, wr) {
				t.Fatalf("measured row\n%+v\nwant the decoded one\n%+v", gr, wr)
			}
		})
	}
}

func TestDigitsIn(t *testing.T) {
	for _, tc := range []struct{ from, count, want int64 }{
		{1, 9, 9}, {1, 10, 11}, {1, 100, 9 + 180 + 3}, {9990, 20, 10*4 + 10*5}, {5, 0, 0},
	} {
		if got := digitsIn(tc.from, tc.count); got != tc.want {
			t.Errorf("digitsIn(%d, %d) = %d, want %d", tc.from, tc.count, got, tc.want)
		}
	}
}
