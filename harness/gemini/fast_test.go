package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/agentcorpus"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// fixtureLines are the lines of every captured Gemini CLI 0.61.0 session log in testdata.
func fixtureLines(t testing.TB) [][]byte {
	return agentlogtest.Lines(t, 5, "testdata/*/.gemini/tmp/*/chats/*.jsonl")
}

// agreeWithDecoder fails t when the one-pass reader takes raw and answers otherwise than the decoder's
// short form; it reports whether the one-pass reader took it.
func agreeWithDecoder(t *testing.T, raw []byte) bool {
	t.Helper()
	return agentlogtest.Agrees(t, raw, (&fastLine{}).read, (&parser{}).decode)
}

// TestFastLineOnFixtures: the one-pass reader takes every line of the real logs the record reader
// decodes (else it would be no faster on them), and answers as the decoder does on each.
func TestFastLineOnFixtures(t *testing.T) {
	p := &parser{cur: &session{}}
	for _, raw := range fixtureLines(t) {
		if p.passOver(raw) {
			continue
		}
		if !agreeWithDecoder(t, raw) {
			t.Errorf("a line left to the decoder: %.200s", raw)
		}
	}
}

// TestFastLineRefuses: what the one-pass reader is unsure of goes to the decoder.
func TestFastLineRefuses(t *testing.T) {
	agentlogtest.LeftToTheDecoder(t, map[string]string{
		"escaped key":         `{"typ\u0065":"gemini"}`,
		"folded key":          `{"ID":"m","type":"gemini"}`,
		"folded token key":    `{"id":"m","tokens":{"Input":1}}`,
		"repeated key":        `{"id":"a","id":"b"}`,
		"repeated count":      `{"tokens":{"input":1,"input":2}}`,
		"null string":         `{"id":null}`,
		"fraction":            `{"tokens":{"input":1.5}}`,
		"string for a number": `{"tokens":{"output":"1"}}`,
		"overflow":            `{"tokens":{"cached":9223372036854775808}}`,
		"number for a string": `{"type":1}`,
		"object for calls":    `{"toolCalls":{"name":"x"}}`,
		"number for a name":   `{"toolCalls":[{"name":1}]}`,
		"whole session":       `{"sessionId":"s","messages":[]}`,
		"trailing data":       `{"id":"m"} x`,
		"truncated":           `{"id":"m","toolCalls":[{"name":"x"`,
		"invalid utf-8":       "{\"id\":\"\xff\"}",
	}, (&fastLine{}).read)
}

// FuzzFastLine holds the one-pass reader to the decoder's answer on every line it takes.
func FuzzFastLine(f *testing.F) {
	for _, raw := range fixtureLines(f) {
		f.Add(raw)
	}
	f.Add([]byte(`{"id":"g","type":"gemini","tokens":null,"$set":null,"$rewindTo":null,"toolCalls":null,"content":null}`))
	f.Add([]byte(`{"id":"g","toolCalls":[],"tokens":{}}`))
	f.Add([]byte(`{"id":"g","toolCalls":[null,{"name":"a","result":[{"text":"\u00e9\n"}]},{}]}`))
	f.Add([]byte(`{"$set":{"lastUpdated":"2026-12-06T02:27:03Z","messages":[{"id":"x"}]}}`))
	f.Add([]byte(`{"$rewindTo":"x\u0041","type":"us\u0065r"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		agreeWithDecoder(t, raw)
	})
}

// TestFastPathsAgreeWithTheDecoder: every Gemini CLI session of the fixtures, the bad-input cases and a
// small generated corpus gives the same records (calls, tokens, tools, start and end, warnings) when
// every line goes through the decoder. The quick pass and the one-pass reader only make it faster.
func TestFastPathsAgreeWithTheDecoder(t *testing.T) {
	dir := t.TempDir()
	if _, err := agentcorpus.Write(filepath.Join(dir, "home"), 4<<20); err != nil {
		t.Fatal(err)
	}
	homes, _ := filepath.Glob("testdata/*/.gemini")
	homes = append(homes, filepath.Join(dir, "home/.gemini"))
	base, err := os.ReadFile(filepath.Join("testdata", "A", ".gemini", "tmp", "proj", "chats", "session-2026-12-06T02-27-8b5bbf44.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, extra := range []string{
		"{not json\n",
		`{"id":"x1","timestamp":"2026-12-06T02:27:03Z","type":"gemini","model":"gemini-3.8-flash","tokens":{"input":1.5}}` + "\n",
		`{"id":"x2","timestamp":"2026-12-06T02:27:03Z","type":"gemini","model":"gemini-3.8-flash","tokens":{"input":7,"input":9}}` + "\n",
		`{"ID":"x3","timestamp":"2026-12-06T02:27:04Z","Type":"gemini","model":"gemini-3.8-flash","tokens":{"Input":3}}` + "\n",
		`{"id":"x4","timestamp":"2026-12-06T02:27:05Z","type":"gemini","model":"gemini-3.8-flash","tokens":{"input":4},"toolCalls":[null,{"name":"read_file","result":[{"text":"\u00e9"}]}]}` + "\n",
		`{"$set":{"lastUpdated":"2026-12-06T03:00:00Z"},"id":"x5"}` + "\n",
	} {
		home := filepath.Join(dir, fmt.Sprintf("bad%d", i), ".gemini")
		chats := filepath.Join(home, "tmp", "proj", "chats")
		if err := os.MkdirAll(chats, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chats, "session-2026-12-06T02-27-8b5bbf44.jsonl"), agentlogtest.Spliced(base, extra), 0o644); err != nil {
			t.Fatal(err)
		}
		homes = append(homes, home)
	}
	agentlogtest.SameBothWays(t, homes, &decodeAll, func(home string) (agentlogtest.Scanned, error) {
		files, _ := Logs{}.Discover([]string{home})
		return agentlogtest.Scan(files)
	})
}
