package intake

import "testing"

func TestJSONKind(t *testing.T) {
	for raw, want := range map[string]string{`"x"`: "string", ` {}`: "object", `[1]`: "array", `true`: "bool", `false`: "bool", `null`: "null", `-3`: "number", `12`: "number", ``: "nothing"} {
		if got := JSONKind([]byte(raw)); got != want {
			t.Errorf("JSONKind(%q) = %q, want %q", raw, got, want)
		}
	}
}
