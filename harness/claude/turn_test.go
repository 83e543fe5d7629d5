package claude

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
)

// TestNamesID: a tool_use's id is found however the transcript spaces its members; a tool_result's
// tool_use_id and the id inside another string are not it.
func TestNamesID(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"type":"tool_use","id":"toolu_1","name":"Read"}`, true},
		{`{"type": "tool_use", "id": "toolu_1", "name": "Read"}`, true},
		{"{\"id\"\t:\n\"toolu_1\"}", true},
		{`{"type":"tool_result","tool_use_id":"toolu_1"}`, false},
		{`{"type":"tool_result","tool_use_id": "toolu_1"}`, false},
		{`{"text":"see toolu_1"}`, false},
		{`{"id":"toolu_12"}`, false},
		{`{"tool_use_id":"toolu_1"},{"id":"toolu_1"}`, true},
	} {
		if got := namesID([]byte(c.text), "toolu_1"); got != c.want {
			t.Errorf("namesID(%s) = %v, want %v", c.text, got, c.want)
		}
	}
}

// The hooks' fixtures: the real Claude Code's transcripts of the sessions bridge/testdata holds.
const hookFixtures = "../../bridge/testdata"

func TestTurnUsage(t *testing.T) {
	two := filepath.Join(hookFixtures, "transcript-two-turns.jsonl")
	u, end, err := Harness{}.TurnUsage(two, bridge.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's own cost-state line: 13 calls, 13,000 input, 650 output (modelUsage).
	want := bridge.Usage{Model: "claude-opus-5-5", Calls: 13, Input: 13000, Output: 650, CacheRead: 65000, CacheCreate: 2600, Context: 6250}
	if u != want {
		t.Fatalf("TurnUsage = %+v, want %+v", u, want)
	}
	fi, _ := os.Stat(two)
	if end.Off != fi.Size() {
		t.Fatalf("end %d, want the file's size %d", end.Off, fi.Size())
	}
	// From the end on, nothing more.
	if u, _, _ := (Harness{}).TurnUsage(two, end); u.Calls != 0 {
		t.Fatalf("from the end: %+v", u)
	}
	sub, err := Harness{}.AgentUsage(filepath.Join(hookFixtures, "subagent.jsonl"))
	if err != nil || sub.Calls != 1 || sub.Input != 1000 {
		t.Fatalf("subagent usage = %+v, %v", sub, err)
	}
	main, _, _ := Harness{}.TurnUsage(filepath.Join(hookFixtures, "subagent.jsonl"), bridge.Cursor{})
	if main.Calls != 0 {
		t.Fatalf("a subagent's sidechain lines counted as the main loop's: %+v", main)
	}
}

// TestTurnUsageIsTheSessionsCount: a turn's usage is what the session's record counts for the same calls,
// call by call, on every fixture transcript: one reader counts a call everywhere.
func TestTurnUsageIsTheSessionsCount(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(hookFixtures, "transcript-*.jsonl"))
	more, _ := filepath.Glob("testdata/projects/*/*.jsonl")
	paths = append(paths, more...)
	if len(paths) != 5 {
		t.Fatalf("%d transcripts, want the fixtures' 5: %q", len(paths), paths)
	}
	for _, p := range paths {
		u, _, err := Harness{}.TurnUsage(p, bridge.Cursor{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := readRecord(p, transcript{}, agentlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if u.Calls != rec.Calls || u.Input != rec.Tokens.Input || u.Output != rec.Tokens.Output ||
			u.CacheRead != rec.Tokens.CacheRead || u.CacheCreate != rec.Tokens.CacheWrite {
			t.Errorf("%s: the turn's usage %+v, the session's record %d calls %+v", p, u, rec.Calls, rec.Tokens)
		}
	}
}

func TestTurnUsageLeavesAPartialLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	line := `{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":5,"output_tokens":1}}}`
	if err := os.WriteFile(path, []byte(line+"\n"+line[:20]), 0o600); err != nil {
		t.Fatal(err)
	}
	u, end, err := Harness{}.TurnUsage(path, bridge.Cursor{})
	if err != nil || u.Calls != 1 || end.Off != int64(len(line)+1) {
		t.Fatalf("TurnUsage = %+v, %d, %v: a line still being written is left for the next read", u, end.Off, err)
	}
}

// TestTurnUsageReadOnCountsEachCallOnce: a transcript read in pieces, as the hooks read it (a Stop, then
// the next event), cut at every line: whichever piece a response's content-block lines fall in, each call
// counts once, billed its largest usage, and the pieces add up to what one read of the whole counts.
func TestTurnUsageReadOnCountsEachCallOnce(t *testing.T) {
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"go"}}`,
		`{"type":"assistant","requestId":"r1","message":{"id":"m1","model":"claude-opus-5-5","content":[{"type":"thinking","thinking":"x"}],"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":1}}}`,
		`{"type":"assistant","requestId":"r1","message":{"id":"m1","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}],"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":40}}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
		`{"type":"assistant","requestId":"r2","message":{"id":"m2","model":"claude-opus-5-5","content":[{"type":"thinking","thinking":"y"}],"usage":{"input_tokens":3,"cache_read_input_tokens":150,"cache_creation_input_tokens":30,"output_tokens":2}}}`,
		`{"type":"assistant","requestId":"r2","message":{"id":"m2","model":"claude-opus-5-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":3,"cache_read_input_tokens":150,"cache_creation_input_tokens":30,"output_tokens":55}}}`,
	}
	whole := bridge.Usage{Model: "claude-opus-5-5", Calls: 2, Input: 13, Output: 95, CacheRead: 250, CacheCreate: 50, Context: 3 + 150 + 30 + 55}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	for cut := 0; cut <= len(lines); cut++ {
		var text string
		for _, l := range lines[:cut] {
			text += l + "\n"
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		first, at, err := Harness{}.TurnUsage(path, bridge.Cursor{})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines[cut:] {
			text += l + "\n"
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		rest, end, err := Harness{}.TurnUsage(path, at)
		if err != nil {
			t.Fatal(err)
		}
		sum := bridge.Usage{Model: "claude-opus-5-5", Calls: first.Calls + rest.Calls, Input: first.Input + rest.Input, Output: first.Output + rest.Output,
			CacheRead: first.CacheRead + rest.CacheRead, CacheCreate: first.CacheCreate + rest.CacheCreate, Context: rest.Context}
		if rest.Empty() {
			sum.Context = first.Context
		}
		if sum != whole || end.Off != int64(len(text)) {
			t.Errorf("cut after line %d: %+v then %+v (to %d of %d) add up to %+v, want %+v", cut, first, rest, end.Off, len(text), sum, whole)
		}
	}
}

// TestSidechainOf: a line's isSidechain however it is written, and no answer for one that is not a
// boolean.
func TestSidechainOf(t *testing.T) {
	for _, c := range []struct {
		line     string
		side, ok bool
	}{
		{`{"type":"assistant"}`, false, true},
		{`{"isSidechain":true,"type":"assistant"}`, true, true},
		{`{"type":"assistant", "isSidechain" : false}`, false, true},
		{`{"isSide\u0063hain":true}`, true, true},
		{`{"isSidechain":null}`, false, true},
		{`{"isSidechain":"yes"}`, false, false},
		{`{"isSidechain":tru}`, false, false},
	} {
		side, ok := sidechainOf([]byte(c.line))
		if side != c.side || ok != c.ok {
			t.Errorf("sidechainOf(%s) = %v, %v; want %v, %v", c.line, side, ok, c.side, c.ok)
		}
	}
}
