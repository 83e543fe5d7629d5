package bridge

import "testing"

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
