package qwen

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentcorpus"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// fixtureLines are the records of every captured Qwen Code 0.24.4 chat log in testdata.
func fixtureLines(t testing.TB) [][]byte {
	return agentlogtest.Lines(t, 3, "testdata/*/.qwen/projects/*/chats/*.jsonl")
}

// agreeWithDecoder fails t when the one-pass reader takes raw and answers otherwise than the decoder; it
// reports whether the one-pass reader took it.
func agreeWithDecoder(t *testing.T, raw []byte) bool {
	t.Helper()
	return agentlogtest.Agrees(t, raw, (&fastLine{}).read, func(raw []byte, l *line) error { return json.Unmarshal(raw, l) })
}

// TestFastLineOnFixtures: the one-pass reader takes every record of the real logs the record reader
// decodes (else it would be no faster on them), and answers as the decoder does on each.
func TestFastLineOnFixtures(t *testing.T) {
	taken := 0
	for _, raw := range fixtureLines(t) {
		rec := agentlog.Record{Cwd: "/"}
		if passOver(raw, &rec) {
			continue
		}
		if !agreeWithDecoder(t, raw) {
			t.Errorf("a record left to the decoder: %.200s", raw)
		}
		taken++
	}
	if taken < 3 {
		t.Errorf("only %d records read in one pass", taken)
	}
}

// TestFastLineRefuses: what the one-pass reader is unsure of goes to the decoder.
func TestFastLineRefuses(t *testing.T) {
	agentlogtest.LeftToTheDecoder(t, map[string]string{
		"escaped key":         `{"typ\u0065":"assistant"}`,
		"folded key":          `{"UUID":"a","type":"assistant"}`,
		"folded usage key":    `{"usageMetadata":{"PromptTokenCount":1}}`,
		"repeated key":        `{"uuid":"a","uuid":"b"}`,
		"repeated count":      `{"usageMetadata":{"promptTokenCount":1,"promptTokenCount":2}}`,
		"null string":         `{"model":null}`,
		"fraction":            `{"usageMetadata":{"promptTokenCount":1.5}}`,
		"string for a number": `{"usageMetadata":{"totalTokenCount":"1"}}`,
		"overflow":            `{"usageMetadata":{"cachedContentTokenCount":9223372036854775808}}`,
		"number for a string": `{"type":1}`,
		"object for parts":    `{"message":{"parts":{"functionCall":{"name":"x"}}}}`,
		"number for a name":   `{"message":{"parts":[{"functionCall":{"name":1}}]}}`,
		"trailing data":       `{"uuid":"a"} x`,
		"truncated":           `{"uuid":"a","message":{"parts":[`,
		"invalid utf-8":       "{\"uuid\":\"\xff\"}",
	}, (&fastLine{}).read)
}

// FuzzFastLine holds the one-pass reader to the decoder's answer on every record it takes.
func FuzzFastLine(f *testing.F) {
	for _, raw := range fixtureLines(f) {
		f.Add(raw)
	}
	f.Add([]byte(`{"uuid":"a","type":"assistant","message":null,"usageMetadata":null}`))
	f.Add([]byte(`{"message":{"parts":null}}`))
	f.Add([]byte(`{"message":{"parts":[]},"usageMetadata":{}}`))
	f.Add([]byte(`{"message":{"parts":[null,{"functionCall":null},{"functionCall":{"name":"a\u00e9","args":{"x":[1,"\n"]}}},{}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		agreeWithDecoder(t, raw)
	})
}

// TestFastPathsAgreeWithTheDecoder: every Qwen Code session of the fixtures, the bad-input cases and a
// small generated corpus gives the same records (calls, tokens, tools, start and end, warnings) when
// every record goes through the decoder. The quick pass and the one-pass reader only make it faster.
func TestFastPathsAgreeWithTheDecoder(t *testing.T) {
	dir := t.TempDir()
	if _, err := agentcorpus.Write(filepath.Join(dir, "home"), 4<<20); err != nil {
		t.Fatal(err)
	}
	homes, _ := filepath.Glob("testdata/*/.qwen")
	homes = append(homes, filepath.Join(dir, "home/.qwen"))
	logs, _ := filepath.Glob("testdata/qw1/.qwen/projects/*/chats/*.jsonl")
	if len(logs) != 1 {
		t.Fatalf("qw1's chat logs: %q", logs)
	}
	base, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	for i, extra := range []string{
		"{not json\n",
		`{"uuid":"x1","timestamp":"2026-12-06T02:27:03Z","type":"assistant","model":"qwen3-coder-plus","usageMetadata":{"promptTokenCount":1.5}}` + "\n",
		`{"uuid":"x2","timestamp":"2026-12-06T02:27:03Z","type":"assistant","model":"qwen3-coder-plus","usageMetadata":{"promptTokenCount":7,"promptTokenCount":9}}` + "\n",
		`{"UUID":"x3","timestamp":"2026-12-06T02:27:04Z","Type":"assistant","model":"qwen3-coder-plus","usageMetadata":{"PromptTokenCount":3}}` + "\n",
		`{"uuid":"x4","timestamp":"2026-12-06T02:27:05Z","type":"assistant","model":"qwen3-coder-plus","message":{"parts":[null,{"functionCall":{"name":"read_file","args":{"p":"\u00e9"}}}]},"usageMetadata":{"promptTokenCount":4}}` + "\n",
	} {
		home := filepath.Join(dir, fmt.Sprintf("bad%d", i), ".qwen")
		chats := filepath.Join(home, "projects", "-home-dev-proj", "chats")
		if err := os.MkdirAll(chats, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chats, filepath.Base(logs[0])), agentlogtest.Spliced(base, extra), 0o644); err != nil {
			t.Fatal(err)
		}
		homes = append(homes, home)
	}
	agentlogtest.SameBothWays(t, homes, &decodeAll, func(home string) (agentlogtest.Scanned, error) {
		files, _ := Logs{}.Discover([]string{home})
		return agentlogtest.Scan(files)
	})
}
