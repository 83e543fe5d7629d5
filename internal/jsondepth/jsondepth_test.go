package jsondepth

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		max     int
		tooDeep bool
		offset  int
	}{
		{"flat", `{"a":1}`, 1, false, 0},
		{"at the limit", `[[[]]]`, 3, false, 0},
		{"one too deep", `[[[[]]]]`, 3, true, 3},
		{"objects and arrays count alike", `{"a":[{"b":[1]}]}`, 3, true, 11},
		{"brackets in strings do not count", `["[[[[{{{{"]`, 1, false, 0},
		{"escaped quote stays in the string", `["\"[[[["]`, 1, false, 0},
		{"escaped backslash ends the string", `["\\",[[1]]]`, 2, true, 7},
		{"siblings do not add up", `[[1],[2],[3],[4]]`, 2, false, 0},
		{"unterminated string", `["[[[[`, 1, false, 0},
		{"two million levels", strings.Repeat("[", 2_000_000), Max, true, Max},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offset, deep := Check([]byte(tt.text), tt.max)
			if deep != tt.tooDeep || offset != tt.offset {
				t.Errorf("Check = %d, %v; want %d, %v", offset, deep, tt.offset, tt.tooDeep)
			}
			if o, d := CheckString(tt.text, tt.max); o != offset || d != deep {
				t.Errorf("CheckString = %d, %v; Check = %d, %v", o, d, offset, deep)
			}
		})
	}
}

func BenchmarkCheck(b *testing.B) {
	text := []byte(`{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{"tool":"Bash","input":{"command":"go test ./..."},"result":{"text":"` +
		strings.Repeat(`ok  \tpkg\t0.1s \"x\"\n`, 5000) + `"}}}`)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Check(text, Max)
	}
}
