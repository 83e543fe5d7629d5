package claude

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// decoded is what the decoder makes of a line: the fields the reader uses and, where the reader would
// decode them, the content's blocks.
type decoded struct {
	line      claudeLine
	usage     *claudeUsage
	blocks    []block
	blocksErr bool
}

func viaDecoder(line []byte) (decoded, error) {
	var d decoded
	if err := parseLine(line, &d.line); err != nil {
		return d, err
	}
	d.usage = d.line.Message.Usage
	if c := d.line.Message.Content; len(c) > 0 && c[0] == '[' && bytes.Contains(c, quotedToolUse) {
		d.blocksErr = parseLine(c, &d.blocks) != nil
	}
	return d, nil
}

// agreeWithDecoder fails t when the one-pass reader takes line and answers otherwise than the decoder.
// It reports whether the one-pass reader took it.
func agreeWithDecoder(t *testing.T, line []byte) bool {
	t.Helper()
	var f fastLine
	var got claudeLine
	if !f.read(line, &got) {
		return false
	}
	want, err := viaDecoder(line)
	if err != nil {
		t.Fatalf("%q: the one-pass reader took a line the decoder refuses (%v)", line, err)
	}
	if want.line.Total != nil || want.line.ModelUse != nil {
		t.Fatalf("%q: the one-pass reader took a cost-state", line)
	}
	gu, wu := got.Message.Usage, want.usage
	got.Message.Usage, want.line.Message.Usage = nil, nil
	if !bytes.Equal(got.Message.Content, want.line.Message.Content) {
		t.Fatalf("%q: content %q, the decoder's %q", line, got.Message.Content, want.line.Message.Content)
	}
	got.Message.Content, want.line.Message.Content = nil, nil
	if !reflect.DeepEqual(got, want.line) {
		t.Fatalf("%q: line %+v, the decoder's %+v", line, got, want.line)
	}
	if (gu == nil) != (wu == nil) || gu != nil && (gu.usage() != wu.usage() || gu.Input != wu.Input || gu.CacheCreate != wu.CacheCreate ||
		(gu.Creation == nil) != (wu.Creation == nil) || gu.Creation != nil && *gu.Creation != *wu.Creation) {
		t.Fatalf("%q: usage %+v, the decoder's %+v", line, gu, wu)
	}
	if want.blocks != nil || want.blocksErr {
		if want.blocksErr || !f.parsed {
			t.Fatalf("%q: blocks parsed %v, the decoder's failed %v", line, f.parsed, want.blocksErr)
		}
		if len(want.blocks) != len(f.blocks) || len(f.blocks) > 0 && !reflect.DeepEqual(want.blocks, f.blocks) {
			t.Fatalf("%q: blocks %+v, the decoder's %+v", line, f.blocks, want.blocks)
		}
	}
	return true
}

// fixtureLines are the lines of every Claude Code transcript in testdata (the real client's, copied).
func fixtureLines(t testing.TB) [][]byte {
	var paths []string
	for _, glob := range []string{"testdata/projects/*/*.jsonl", "testdata/projects/*/*/subagents/*.jsonl"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	var lines [][]byte
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines = append(lines, append([]byte(nil), sc.Bytes()...))
		}
		f.Close()
	}
	if len(lines) == 0 {
		t.Fatal("no fixture lines")
	}
	return lines
}

// TestFastLineOnFixtures: the one-pass reader takes every assistant line of the real transcripts (else it
// would be no faster on them) and answers as the decoder does on every line it takes.
func TestFastLineOnFixtures(t *testing.T) {
	for _, line := range fixtureLines(t) {
		took := agreeWithDecoder(t, line)
		var l claudeLine
		if parseLine(line, &l) == nil && l.Type == "assistant" && !took {
			t.Errorf("an assistant line left to the decoder: %.200s", line)
		}
	}
}

// TestFastLineRefuses: what the one-pass reader is unsure of goes to the decoder.
func TestFastLineRefuses(t *testing.T) {
	agentlogtest.LeftToTheDecoder(t, map[string]string{
		"escaped key":          `{"typ\u0065":"assistant"}`,
		"repeated key":         `{"type":"user","type":"assistant"}`,
		"repeated message key": `{"message":{"id":"a","id":"b"}}`,
		"null usage":           `{"message":{"usage":null}}`,
		"fraction":             `{"message":{"usage":{"input_tokens":1.5}}}`,
		"string for a number":  `{"message":{"usage":{"input_tokens":"1"}}}`,
		"leading zero":         `{"message":{"usage":{"input_tokens":01}}}`,
		"exponent":             `{"message":{"usage":{"input_tokens":1e3}}}`,
		"overflow":             `{"message":{"usage":{"input_tokens":9223372036854775808}}}`,
		"number for a string":  `{"type":1}`,
		"cost-state":           `{"type":"cost-state","totalCostUSD":1}`,
		"content of strings":   `{"message":{"content":["tool_use"]}}`,
		"null content":         `{"message":{"content":null}}`,
		"trailing data":        `{"type":"assistant"} x`,
		"truncated":            `{"type":"assistant","message":{"id":"m"`,
		"invalid utf-8":        "{\"type\":\"\xff\"}",
	}, (&fastLine{}).read)
}

// FuzzFastLine holds the one-pass reader to the decoder's answer on every line it takes.
func FuzzFastLine(f *testing.F) {
	for _, line := range fixtureLines(f) {
		f.Add(line)
	}
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}],"usage":{"input_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":2}}}}`))
	f.Add([]byte(`{"message":{"usage":{"input_tokens":-9223372036854775808,"output_tokens":9223372036854775807,"cache_read_input_tokens":-0}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		agreeWithDecoder(t, line)
	})
}

// TestFastPathsAgreeWithTheDecoder: every Claude Code session of the fixtures, the bad-input cases and a
// small generated corpus gives the same record (calls, tokens, tools, start and end, warnings) when every
// line goes through the decoder. The quick pass and the one-pass reader only make it faster.
func TestFastPathsAgreeWithTheDecoder(t *testing.T) {
	dir := t.TempDir()
	if err := writeCorpus(filepath.Join(dir, "claude"), 3, 300<<10); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, glob := range []string{"testdata/projects/*/*.jsonl", filepath.Join(dir, "claude/projects/*/*.jsonl")} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	// The bad-input lines, each after a call so that the quick pass sees them.
	for i, extra := range []string{
		"not json\n", `{"type":"assistant","message":{"id":"m9"`, `{"type":"user","timestamp":"2026-12-01T09:00:00Z","x":{"timestamp":"2031-01-01T00:00:00Z"}}` + "\n",
		`{"type":"user","timestamp":"2026-12-01T09:00:00Z","timestamp":"2026-12-01T11:00:00Z"}` + "\n",
		`{"type":"assistant","timestamp":"2026-12-01T12:00:00Z","message":{"id":"m8","model":"claude-opus-5-5","usage":{"input_tokens":1.5}}}` + "\n",
		`{"type":"cost-state","totalCostUSD":0.5,"modelUsage":{"claude-opus-5-5":{"inputTokens":1}}}` + "\n",
	} {
		p := filepath.Join(dir, fmt.Sprintf("bad%d.jsonl", i))
		if err := os.WriteFile(p, []byte(callLine(0)+extra+callLine(1)), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d transcripts", len(paths))
	}
	agentlogtest.SameBothWays(t, paths, &decodeAll, func(p string) (agentlog.Record, error) { return ReadSession(p, agentlog.Options{}) })
}

// BenchmarkAssistantLine: one real assistant line (Claude Code 2.1.328's layout, a tool_use block) read by
// the one-pass reader and by the decoder it stands in for.
//
//	go test -run '^$' -bench AssistantLine -benchmem ./harness/claude
func BenchmarkAssistantLine(b *testing.B) {
	var line []byte
	for _, l := range fixtureLines(b) {
		var cl claudeLine
		if parseLine(l, &cl) == nil && cl.Type == "assistant" && bytes.Contains(cl.Message.Content, quotedToolUse) {
			line = l
			break
		}
	}
	if line == nil {
		b.Fatal("no assistant line with a tool_use in the fixtures")
	}
	b.Run("one-pass", func(b *testing.B) {
		var f fastLine
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for range b.N {
			var l claudeLine
			if !f.read(line, &l) {
				b.Fatal("left to the decoder")
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for range b.N {
			var l claudeLine
			if err := parseLine(line, &l); err != nil {
				b.Fatal(err)
			}
			var blocks []block
			if err := parseLine(l.Message.Content, &blocks); err != nil {
				b.Fatal(err)
			}
		}
	})
}
