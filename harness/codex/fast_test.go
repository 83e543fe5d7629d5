package codex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentcorpus"
	"github.com/saverd/saverd/internal/agentlogtest"
	json "github.com/segmentio/encoding/json"
)

// fixtureRollouts are the real Codex rollouts in testdata (0.169.0's and 0.58's).
func fixtureRollouts(t testing.TB) []string {
	var paths []string
	for _, glob := range []string{"testdata/sessions/*/*/*/*.jsonl", "testdata/versions/*/sessions/*/*/*/*.jsonl"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	if len(paths) < 5 {
		t.Fatalf("only %d fixture rollouts", len(paths))
	}
	return paths
}

func fixtureRolloutLines(t testing.TB) [][]byte {
	return agentlogtest.Lines(t, 5, "testdata/sessions/*/*/*/*.jsonl", "testdata/versions/*/sessions/*/*/*/*.jsonl")
}

// decodedLine is a line and its payload as the decoder reads them, its pointers followed.
type decodedLine struct {
	Timestamp, Type                                string
	PType, ID, Stamp, Cwd, Turn, Model, Resp, Name string
	CallID                                         string
	Usage, Thread, Total, Last                     *codexUsage
	Info                                           bool
	Item                                           *codexItem
	Meta                                           *codexMeta
}

func flatten(l *codexLine, p *codexPayload) decodedLine {
	d := decodedLine{Timestamp: l.Timestamp, Type: l.Type, PType: p.Type, ID: p.ID, Stamp: p.Timestamp, Cwd: p.Cwd,
		Turn: p.TurnID, Model: p.Model, Resp: p.ResponseID, Name: p.Name, CallID: p.CallID,
		Usage: p.Usage, Thread: p.Thread, Item: p.Item, Meta: p.Metadata}
	if p.Info != nil {
		d.Info, d.Total, d.Last = true, p.Info.Total, p.Info.Last
	}
	return d
}

// agreeWithDecoder fails t when the one-pass reader takes line and answers otherwise than decodeRollout;
// it reports whether the one-pass reader took it.
func agreeWithDecoder(t *testing.T, line []byte) bool {
	t.Helper()
	var f fastRollout
	var gl codexLine
	var gp codexPayload
	if !f.read(line, &gl, &gp) {
		return false
	}
	var wl codexLine
	var wp codexPayload
	var bad error
	if !decodeRollout(func(err error) { bad = err }, line, &wl, &wp) {
		t.Fatalf("%q: the one-pass reader took a line the decoder refuses (%v)", line, bad)
	}
	if got, want := flatten(&gl, &gp), flatten(&wl, &wp); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\none-pass %+v\ndecoder  %+v", line, got, want)
	}
	return true
}

// TestFastRolloutOnFixtures: the one-pass reader takes every line of the real rollouts that the quick
// pass leaves (else it would be no faster on them), and answers as the decoder does on each.
func TestFastRolloutOnFixtures(t *testing.T) {
	for _, line := range fixtureRolloutLines(t) {
		if (&codexSession{}).quick(line) {
			continue
		}
		if !agreeWithDecoder(t, line) && !bareItem(line) { // the first releases' bare items are the decoder's
			t.Errorf("a line left to the decoder: %.200s", line)
		}
	}
}

// bareItem says whether line is an item written bare, as Codex CLI's first releases wrote them (direct).
func bareItem(line []byte) bool {
	var l codexLine
	return json.Unmarshal(line, &l) == nil && direct(l.Type)
}

// TestFastRolloutRefuses: what the one-pass reader is unsure of goes to the decoder.
func TestFastRolloutRefuses(t *testing.T) {
	for name, line := range map[string]string{
		"escaped key":         `{"typ\u0065":"token_usage_record"}`,
		"folded key":          `{"Type":"token_usage_record","payload":{}}`,
		"folded payload key":  `{"type":"token_usage_record","payload":{"Usage":{"input_tokens":1}}}`,
		"folded usage key":    `{"type":"token_usage_record","payload":{"usage":{"Input_Tokens":1}}}`,
		"repeated key":        `{"type":"event_msg","type":"token_usage_record"}`,
		"repeated payload":    `{"type":"event_msg","payload":{},"payload":{}}`,
		"repeated count":      `{"payload":{"usage":{"input_tokens":1,"input_tokens":2}}}`,
		"null payload":        `{"type":"event_msg","payload":null}`,
		"null string":         `{"payload":{"turn_id":null}}`,
		"fraction":            `{"payload":{"usage":{"input_tokens":1.5}}}`,
		"string for a number": `{"payload":{"usage":{"output_tokens":"1"}}}`,
		"exponent":            `{"payload":{"info":{"last_token_usage":{"total_tokens":1e3}}}}`,
		"overflow":            `{"payload":{"usage":{"input_tokens":9223372036854775808}}}`,
		"number for a string": `{"type":1}`,
		"string for a bool":   `{"payload":{"metadata":{"compaction_output":"true"}}}`,
		"payload of a string": `{"type":"event_msg","payload":"token_count"}`,
		"trailing data":       `{"type":"event_msg"} x`,
		"truncated":           `{"type":"event_msg","payload":{"type":"token_count"`,
		"invalid utf-8":       "{\"type\":\"\xff\"}",
	} {
		t.Run(name, func(t *testing.T) {
			var f fastRollout
			var l codexLine
			var p codexPayload
			if f.read([]byte(line), &l, &p) {
				t.Errorf("%s: taken, want it left to the decoder", line)
			}
		})
	}
}

// FuzzFastRollout holds the one-pass reader to the decoder's answer on every line it takes.
func FuzzFastRollout(f *testing.F) {
	for _, line := range fixtureRolloutLines(f) {
		f.Add(line)
	}
	f.Add([]byte(`{"timestamp":"2026-12-01T09:00:00.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","call_id":"c","metadata":{"compaction_output":true}}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"x","command":["ls"]}}}`))
	f.Add([]byte(`{"payload":{"usage":null,"info":{"total_token_usage":null},"item":null,"metadata":null,"thread_token_usage":null}}`))
	f.Add([]byte(`{"payload":{"usage":nul}}`))
	f.Add([]byte(`{"payload":{"usage":{"input_tokens":-9223372036854775808,"output_tokens":9223372036854775807,"total_tokens":-0}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		agreeWithDecoder(t, line)
	})
}

// TestFastPathsAgreeWithTheDecoder: every Codex rollout of the fixtures, the bad-input cases and a small
// generated corpus gives the same record (calls, tokens, tools, start and end, warnings) when every line
// goes through the decoder. The quick pass and the one-pass reader only make it faster.
func TestFastPathsAgreeWithTheDecoder(t *testing.T) {
	dir := t.TempDir()
	if _, err := agentcorpus.Write(filepath.Join(dir, "home"), 4<<20); err != nil {
		t.Fatal(err)
	}
	paths := fixtureRollouts(t)
	generated, _ := filepath.Glob(filepath.Join(dir, "home/.codex/sessions/*/*/*/*.jsonl"))
	if len(generated) == 0 {
		t.Fatal("the generated corpus holds no rollout")
	}
	paths = append(paths, generated...)
	first, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	// The bad-input lines, each amid a real rollout's lines so that both paths see them.
	for i, extra := range []string{
		"not json\n",
		`{"timestamp":"2026-12-01T19:44:20.000Z","type":"token_usage_record","payload":{"turn_id":"t","response_id":"r9","usage":{"input_tokens":1.5}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:20.000Z","type":"token_usage_record","payload":{"turn_id":"t","response_id":"r8","usage":{"input_tokens":7,"input_tokens":9}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:21.000Z","Type":"token_usage_record","payload":{"Turn_ID":"t","response_id":"r7","usage":{"Input_tokens":3}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:22.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":null,"last_token_usage":{"input_tokens":4}}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:23.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":99999999},"last_token_usage":{"input_tokens":4}}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:24.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"z","metadata":{"compaction_output":true}}}` + "\n",
		`{"timestamp":"2026-12-01T19:44:25.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"e\u0031"}}}` + "\n",
	} {
		data := agentlogtest.Spliced(first, extra)
		p := filepath.Join(dir, fmt.Sprintf("rollout-2026-12-01T19-44-11-0000000%d-d88d-73b3-9fa7-823c5494f927.jsonl", i))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	agentlogtest.SameBothWays(t, paths, &decodeAll, func(p string) (agentlog.Record, error) { return ReadRollout(p, agentlog.Options{}) })
}

// BenchmarkRolloutLine: the lines of a generated rollout the quick pass leaves (a tool call, its
// response's token_usage_record and token_count), read by the one-pass reader and by the decoder it
// stands in for.
//
//	go test -run '^$' -bench RolloutLine -benchmem ./harness/codex
func BenchmarkRolloutLine(b *testing.B) {
	dir := b.TempDir()
	if _, err := agentcorpus.Write(dir, 1<<20); err != nil {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, ".codex/sessions/*/*/*/*.jsonl"))
	if len(paths) == 0 {
		b.Fatal("no generated rollout")
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	size := 0
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if !(&codexSession{}).quick(l) {
			lines, size = append(lines, l), size+len(l)
		}
	}
	b.Run("one-pass", func(b *testing.B) {
		var f fastRollout
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for range b.N {
			for _, line := range lines {
				var l codexLine
				var p codexPayload
				if !f.read(line, &l, &p) {
					b.Fatal("left to the decoder")
				}
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for range b.N {
			for _, line := range lines {
				var l codexLine
				var p codexPayload
				if !decodeRollout(func(err error) { b.Fatal(err) }, line, &l, &p) {
					b.Fatal("refused")
				}
			}
		}
	})
}
