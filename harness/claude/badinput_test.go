package claude

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
)

const goodCall = `{"type":"assistant","sessionId":"s","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","message":{"id":"m%d","model":"claude-opus-5-5","usage":{"input_tokens":100,"output_tokens":10},"content":[]}}`

func callLine(i int) string { return strings.Replace(goodCall, "%d", string(rune('a'+i)), 1) + "\n" }

func TestBadInput(t *testing.T) {
	huge := func(n int) string { return `{"type":"user","x":"` + strings.Repeat("y", n) + `"}` + "\n" }
	tests := []struct {
		name    string
		content string
		maxLine int
		calls   int
		warn    string // a warning containing this
		err     string // or ReadSession fails with this
	}{
		{name: "truncated last line", content: callLine(0) + callLine(1) + `{"type":"assistant","message":{"id":"m9"`,
			calls: 2, warn: "s.jsonl:3: truncated last line (still being written?)"},
		{name: "malformed line in the middle", content: callLine(0) + "not json\n" + callLine(1),
			calls: 2, warn: "s.jsonl:2: malformed line"},
		{name: "line over the bound", content: callLine(0) + huge(3000) + callLine(1), maxLine: 1024,
			calls: 2, warn: "s.jsonl:2: line longer than 1024 bytes, skipped"},
		{name: "over the bound at the end, no newline", content: callLine(0) + strings.TrimSuffix(huge(3000), "\n"), maxLine: 1024,
			calls: 1, warn: "s.jsonl:2: line longer than 1024 bytes"},
		{name: "unknown line types", content: `{"type":"frobnicate","timestamp":"2026-12-01T09:00:00Z"}` + "\n" + callLine(0),
			calls: 1},
		{name: "blank lines", content: "\n\n" + callLine(0) + "\n   \n" + callLine(1), calls: 2},
		{name: "many malformed lines are counted", content: strings.Repeat("nope\n", 9) + callLine(0),
			calls: 1, warn: "4 more malformed lines"},
		{name: "binary file", content: "\x28\xb5\x2f\xfd\x00\x00garbage\n", err: "binary data, not JSON lines"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			rec, err := ReadSession(path, agentlog.Options{MaxLine: tc.maxLine})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming %s and %q", err, path, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Calls != tc.calls {
				t.Errorf("calls = %d, want %d", rec.Calls, tc.calls)
			}
			if tc.warn != "" && !hasWarning(rec.Warnings, tc.warn) {
				t.Errorf("warnings %q, want one containing %q", rec.Warnings, tc.warn)
			}
			if tc.warn == "" && len(rec.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", rec.Warnings)
			}
		})
	}
}

// A 100 MB line under the default bound is skipped without being held: the calls around it still count.
func TestHundredMegabyteLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "-w")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(callLine(0))
	b.WriteString(`{"type":"user","toolUseResult":"`)
	b.Write(bytes.Repeat([]byte("z"), 100<<20))
	b.WriteString("\"}\n")
	b.WriteString(callLine(1))
	if err := os.WriteFile(filepath.Join(proj, "s.jsonl"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	// A binary file named .jsonl beside it is skipped with a warning; the session still counts.
	if err := os.WriteFile(filepath.Join(proj, "b.jsonl"), []byte{0x7f, 'E', 'L', 'F', 0, 0, 1}, 0o600); err != nil {
		t.Fatal(err)
	}
	files, _ := Harness{}.Discover([]string{dir})
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) != 1 || recs[0].Calls != 2 {
		t.Fatalf("records %+v, want one session with 2 calls", recs)
	}
	if !hasWarning(warn, "s.jsonl:2: line longer than") || !hasWarning(warn, "b.jsonl: binary data") {
		t.Errorf("warnings %q, want the long line and the binary file named", warn)
	}
}

// A structured tool result may carry a "timestamp" of its own: the line's own time is still the one used.
func TestNestedTimestamp(t *testing.T) {
	long := strings.Repeat("x", anchorAbove)
	for name, line := range map[string]string{
		"short, nested after":  `{"type":"user","timestamp":"2026-12-01T10:00:05Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]},"toolUseResult":{"timestamp":"2031-01-01T00:00:00Z"}}`,
		"long, envelope first": `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"` + long + `"}]},"uuid":"8ccce794-f01a-4999-bb57-66755c273043","timestamp":"2026-12-01T10:00:05Z","toolUseResult":{"timestamp":"2031-01-01T00:00:00Z"}}`,
		"long, nested first":   `{"type":"user","toolUseResult":{"timestamp":"2031-01-01T00:00:00Z","x":"` + long + `"},"uuid":"8ccce794-f01a-4999-bb57-66755c273043","timestamp":"2026-12-01T10:00:05Z"}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(callLine(0)+line+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			rec, err := ReadSession(path, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.End.Format("2006-01-02T15:04:05Z07:00"); got != "2026-12-01T10:00:05Z" {
				t.Errorf("end = %s, want the line's own time", got)
			}
		})
	}
}
