package jsonscan

import (
	"encoding/json"
	"testing"
)

// TestIntoAsTheDecoder: StringInto and BoolInto leave a field as encoding/json leaves it, a null
// included, and refuse what it refuses.
func TestIntoAsTheDecoder(t *testing.T) {
	for _, in := range []string{`"x"`, `"a\nb"`, `""`, `null`, `true`, `false`, `1`, `nul`, `"open`, `{}`} {
		var wantS, gotS = "before", "before"
		errS := json.Unmarshal([]byte(in), &wantS)
		sc := New([]byte(in))
		okS := sc.StringInto(&gotS) && sc.End()
		if okS != (errS == nil) || (okS && gotS != wantS) {
			t.Errorf("StringInto(%s) = %q, %v; encoding/json %q, %v", in, gotS, okS, wantS, errS)
		}
		var wantB, gotB = true, true
		errB := json.Unmarshal([]byte(in), &wantB)
		sc = New([]byte(in))
		okB := sc.BoolInto(&gotB) && sc.End()
		if okB != (errB == nil) || (okB && gotB != wantB) {
			t.Errorf("BoolInto(%s) = %v, %v; encoding/json %v, %v", in, gotB, okB, wantB, errB)
		}
	}
}
