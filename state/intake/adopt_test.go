package intake

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func lgRowsGeneric(t *testing.T, rows []state.Row) []any {
	out := []any{}
	for _, r := range rows {
		m := lgGeneric(t, r).(map[string]any)
		delete(m, "seq")
		out = append(out, m)
	}
	return out
}

func TestAdoptRowsOracle(t *testing.T) {
	for _, c := range statetest.RulesOracle(t, "adoptRows") {
		var messages []SessionMessage
		if err := json.Unmarshal(c.Args[0], &messages); err != nil {
			t.Fatal(err)
		}
		if got := lgRowsGeneric(t, AdoptRows(messages)); !reflect.DeepEqual(got, c.Want) {
			t.Errorf("AdoptRows(%s)\n got  %v\n want %v", c.Args[0], got, c.Want)
		}
	}
}

func lgMessages(t *testing.T, raw string) []SessionMessage {
	t.Helper()
	var messages []SessionMessage
	if err := json.Unmarshal([]byte(raw), &messages); err != nil {
		t.Fatal(err)
	}
	return messages
}

// Each rule ContextSaver's adopt comments state, as a case.
func TestAdoptRowsRules(t *testing.T) {
	rows := AdoptRows(lgMessages(t, `[
		{"role":"assistant","text":"","toolUses":[{"tool":"Bash","tool_use_id":"t0","input":{"command":"ls"},"result":{},"text":"a"}]},
		{"role":"user","text":"  "},
		{"role":"user","text":"go","toolResults":[{"x":1}]},
		{"role":"user","text":"one"},
		{"role":"user","text":"two","toolResults":[]},
		{"role":"assistant","text":"","toolUses":[
			{"tool":"Read","tool_use_id":"t1","input":{"file_path":"/a"},"result":{"type":"file_unchanged"},"text":"x"},
			{"tool":"Read","tool_use_id":"t2","input":{"file_path":"/a"}},
			{"tool":"Edit","tool_use_id":"t3","input":{"file_path":"/b"},"result":null},
			{"tool":"Bash","tool_use_id":"t4","input":{"command":"rm x"},"isError":true,"result":{}},
			{"tool":"Bash","tool_use_id":"t5","input":{"command":"ls","agentId":"zz","tool":"Evil"},"text":5,"result":{}},
			{"tool":"Bash","tool_use_id":"t6","input":{"command":"ls"},"text":null}
		]},
		{"role":"system","text":"x","toolUses":[{"tool":"Bash","tool_use_id":"s","input":{"command":"ls"},"result":{}}]}
	]`))
	ids := []string{}
	for _, r := range rows {
		ids = append(ids, fmt.Sprintf("%s@%d %s", r.ID, r.Turn, strings.Join(r.Flags, ",")))
		if r.Ms != 0 || r.Agent != state.MainAgent {
			t.Errorf("%s: ms %d agent %q; want 0 and main", r.ID, r.Ms, r.Agent)
		}
	}
	// Turn: typed prompts so far, at least 1 (blank and tool-result messages are no prompt). A call with
	// neither a result nor a text is in flight. The recovered flag comes last. An error is err, never denied.
	want := []string{"t0@1 recovered", "t1@2 dedup,recovered", "t3@2 recovered", "t4@2 err,recovered", "t5@2 recovered"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("rows = %v; want %v", ids, want)
	}
	if rows[4].Tool != "Bash" {
		t.Errorf("an input field named tool replaced the tool: %q", rows[4].Tool)
	}
	if rows[3].Lines != nil || rows[3].Chars != 0 {
		t.Errorf("errored row: %+v", rows[3])
	}
}

func TestAdoptRowsCap(t *testing.T) {
	uses := make([]ToolUseSummary, state.RowCap+100)
	for i := range uses {
		uses[i] = ToolUseSummary{Tool: "Bash", ToolUseID: fmt.Sprintf("t%d", i), Input: map[string]any{"command": "ls"}, HasResult: true}
	}
	rows := AdoptRows([]SessionMessage{{Role: "user", Text: "p"}, {Role: "assistant", ToolUses: uses}})
	if len(rows) != state.RowCap || rows[0].ID != "t100" || rows[state.RowCap-1].ID != fmt.Sprintf("t%d", state.RowCap+99) {
		t.Errorf("kept %d rows, %s…%s; want the newest %d", len(rows), rows[0].ID, rows[len(rows)-1].ID, state.RowCap)
	}
	if got := AdoptRows(nil); got == nil || len(got) != 0 {
		t.Errorf("no messages: %#v", got)
	}
}

func TestAdoptToolUseJSON(t *testing.T) {
	var u ToolUseSummary
	if err := json.Unmarshal([]byte(`{"tool":"Read","tool_use_id":"t","input":{"offset":1.50},"result":null,"text":7,"isError":"true"}`), &u); err != nil {
		t.Fatal(err)
	}
	if !u.HasResult || u.Result != nil || u.Text != nil || u.IsError || u.Input["offset"] != json.Number("1.50") {
		t.Errorf("decoded %+v", u)
	}
	raw, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	var back ToolUseSummary
	if err := json.Unmarshal(raw, &back); err != nil || !back.HasResult || back.Tool != "Read" {
		t.Errorf("round trip %s → %+v, %v", raw, back, err)
	}
	if err := json.Unmarshal([]byte(`{"tool":"x"}`), &u); err != nil || u.HasResult {
		t.Errorf("no result key: %+v, %v", u, err)
	}
}
