package intake

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// agreeKeys holds a row built through keys, asked twice, to the row RowOf builds for the same event.
func agreeKeys(t *testing.T, keys *Keys, e ToolEvent) {
	t.Helper()
	text := "ok"
	result := ToolResult{Text: &text}
	want := RowOf(e, result, 5, 1)
	for pass := range 2 {
		if got := keys.RowOf(e, result, 5, 1); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v, pass %d: row through Keys %+v, want %+v", e.Map(), pass, got, want)
		}
	}
}

// TestKeysAgree: a remembered shell key is the key RowOf builds, for every Bash command of the oracle's
// cases (and the other tools, which Keys leaves to RowOf), past the cap, and for a command that is no
// string.
func TestKeysAgree(t *testing.T) {
	var cases []struct {
		Tool  string          `json:"tool"`
		Input json.RawMessage `json:"input"`
	}
	statetest.ReadOracle(t, "oracle_normalize.json", &cases)
	var keys Keys
	for _, c := range cases {
		e, err := ToolEventFromJSON(c.Input)
		if err != nil {
			t.Fatal(err)
		}
		e.Set("tool", c.Tool)
		e.Set("tool_use_id", "t")
		agreeKeys(t, &keys, e)
	}
	for i := range KeysCap + 10 { // past the cap, the memo starts over
		agreeKeys(t, &keys, ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t", "command": "cat f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune(i))}))
	}
	if len(keys.m) > KeysCap {
		t.Fatalf("%d commands remembered, cap %d", len(keys.m), KeysCap)
	}
	agreeKeys(t, &keys, ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t", "command": json.Number("3")}))
	long := "npm test " + strings.Repeat("--flag ", state.KeyMax)
	agreeKeys(t, &keys, ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t", "command": long}))
	heredoc := "cat > big.txt <<'EOF'\n" + strings.Repeat("a line of the file\n", keysCommandMax/8) + "EOF"
	agreeKeys(t, &keys, ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t", "command": heredoc}))
	if _, kept := keys.m[heredoc]; kept {
		t.Fatalf("a %d-byte command was remembered (at most %d)", len(heredoc), keysCommandMax)
	}
	if k := keys.m[long].key; jstext.Len16(k) > state.KeyMax || !strings.HasPrefix(long, strings.TrimPrefix(k, "test:")) {
		t.Fatalf("the long command's remembered key %.40q… is not its cut", k)
	}
}

// FuzzKeys: any command, read twice through Keys, gives RowOf's row.
func FuzzKeys(f *testing.F) {
	for _, s := range []string{"npm test", "cd web && npm test 2>&1 | tail -5", "cat > f <<'EOF'\nx\nEOF", "😀 \xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		var keys Keys
		agreeKeys(t, &keys, ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t", "command": command}))
	})
}
