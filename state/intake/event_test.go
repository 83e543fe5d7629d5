package intake

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestToolEventMembers: an event read off the wire (strings unboxed, names interned) and the same
// event decoded whole answer every accessor alike, and set, delete, marshal and unmarshal as a map would.
func TestToolEventMembers(t *testing.T) {
	const text = `{"tool":"Bash","tool_use_id":"t1","command":"npm test","timeout":5000,"run_in_background":true,"n":null,"o":{"a":[1,"x"]}}`
	sc := NewEventScanner([]byte(text))
	read, ok := ReadToolEvent(&sc)
	if !ok || !sc.End() {
		t.Fatal("ReadToolEvent refused the event")
	}
	decoded, err := ToolEventFromJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]ToolEvent{"read": read, "decoded": decoded} {
		t.Run(name, func(t *testing.T) {
			cases := []struct {
				member string
				want   any
				has    bool
			}{
				{"tool", "Bash", true}, {"tool_use_id", "t1", true}, {"command", "npm test", true},
				{"timeout", json.Number("5000"), true}, {"run_in_background", true, true}, {"n", nil, true},
				{"o", map[string]any{"a": []any{json.Number("1"), "x"}}, true}, {"absent", nil, false},
			}
			for _, c := range cases {
				got, has := e.Lookup(c.member)
				if has != c.has || !reflect.DeepEqual(got, c.want) || e.Has(c.member) != c.has {
					t.Errorf("Lookup(%s) = %#v, %v; want %#v, %v", c.member, got, has, c.want, c.has)
				}
				s, isStr := c.want.(string)
				if gs, gok := e.String(c.member); gs != s || gok != isStr {
					t.Errorf("String(%s) = %q, %v; want %q, %v", c.member, gs, gok, s, isStr)
				}
				if e.TextOr(c.member, "-") != map[bool]string{true: s, false: "-"}[isStr] {
					t.Errorf("TextOr(%s) = %q", c.member, e.TextOr(c.member, "-"))
				}
			}
			if e.Tool() != "Bash" || e.Len() != 7 || !e.Given() {
				t.Errorf("Tool %q, Len %d, Given %v", e.Tool(), e.Len(), e.Given())
			}
			var want map[string]any
			if err := json.Unmarshal([]byte(text), &want); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var back map[string]any
			if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, want) {
				t.Errorf("MarshalJSON = %s (%v), want the event back", out, err)
			}
			e.Set("command", "ls")
			e.Set("agentId", "a1")
			e.Delete("timeout")
			if e.Text("command") != "ls" || e.Text("agentId") != "a1" || e.Has("timeout") || e.Len() != 7 {
				t.Errorf("after Set and Delete: %v", e.Map())
			}
		})
	}
	var zero ToolEvent
	if zero.Given() || zero.Get("tool") != nil {
		t.Error("the zero event is given")
	}
	if out, _ := json.Marshal(zero); string(out) != "null" {
		t.Errorf("the zero event marshals as %s, want null", out)
	}
	var back ToolEvent
	if err := json.Unmarshal([]byte(`{"tool":"Read"}`), &back); err != nil || back.Tool() != "Read" {
		t.Errorf("UnmarshalJSON: %v, %v", back.Map(), err)
	}
	if err := json.Unmarshal([]byte(`[1]`), &back); err == nil {
		t.Error("UnmarshalJSON took an array")
	}
	for _, n := range []int{readEventMax, readEventMax + 1} {
		var b strings.Builder
		b.WriteString(`{"tool":"x"`)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, `,"m%d":%d`, i, i)
		}
		sc := NewEventScanner([]byte(b.String() + "}"))
		if _, ok := ReadToolEvent(&sc); ok != (n <= readEventMax) {
			t.Errorf("ReadToolEvent of %d members: ok %v (it reads at most %d)", n, ok, readEventMax)
		}
	}
	if sc := NewEventScanner([]byte(`{"tool":"a","tool":"b"}`)); func() bool { _, ok := ReadToolEvent(&sc); return ok }() {
		t.Error("ReadToolEvent took a member named twice")
	}
}
