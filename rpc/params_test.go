package rpc

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDecodeParams(t *testing.T) {
	type inner struct {
		Line int `json:"line"`
	}
	type params struct {
		SessionID string            `json:"sessionId"`
		Seq       uint64            `json:"seq"`
		Ratio     float64           `json:"ratio"`
		Live      bool              `json:"live"`
		Tags      []string          `json:"tags"`
		Meta      map[string]string `json:"meta"`
		At        time.Time         `json:"at"`
		Pos       *inner            `json:"pos"`
		Small     int8              `json:"small"`
		Messages  []struct {
			Role  string  `json:"role"`
			Parts []inner `json:"parts"`
		} `json:"messages"`
	}
	tests := []struct {
		name string
		raw  string
		want string // the error message, "" for success
	}{
		{"absent", ``, ""},
		{"null", `null`, ""},
		{"good", `{"sessionId":"s","seq":3,"tags":["a"],"pos":{"line":2},"unknown":1}`, ""},
		{"string for integer", `{"seq":"3"}`, "params.seq: want number, got string"},
		{"negative for unsigned", `{"seq":-1}`, "params.seq: want non-negative integer in range for uint64, got number -1"},
		{"fraction for integer", `{"seq":1.5}`, "params.seq: want non-negative integer in range for uint64, got number 1.5"},
		{"number for string", `{"sessionId":7}`, "params.sessionId: want string, got number"},
		{"string for bool", `{"live":"yes"}`, "params.live: want boolean, got string"},
		{"object for array", `{"tags":{}}`, "params.tags: want array, got object"},
		{"array for map", `{"meta":[]}`, "params.meta: want object, got array"},
		{"too big", `{"small":300}`, "params.small: want integer in range for int8, got number 300"},
		{"nested", `{"pos":{"line":"x"}}`, "params.pos.line: want number, got string"},
		{"bool for float", `{"ratio":true}`, "params.ratio: want number, got boolean"},
		// A list's element is named by its index.
		{"in a list", `{"messages":[{"role":5}]}`, "params.messages[0].role: want string, got number"},
		{"in a later element", `{"tags":["a"],"messages":[{"role":"user","parts":[]},{"role":"x","parts":[{"line":1},{"line":"2"}]}]}`,
			"params.messages[1].parts[1].line: want number, got string"},
		{"a list element itself", `{"tags":["a",{"b":[1]}]}`, "params.tags[1]: want string, got object"},
		{"members before it skipped", `{"meta":{"k":"v","l":"w"},"pos":{"x":[1,{"y":2}],"line":[]}}`, "params.pos.line: want number, got array"},
		// A custom UnmarshalJSON error names no field: passed on as is.
		{"number for time", `{"at":5}`, "params: Time.UnmarshalJSON: input is not a JSON string"},
		{"array for object", `[1,2]`, "params: want object, got array"},
		{"bad time", `{"at":"yesterday"}`, `params: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"invalid json", `{"seq":`, "params: invalid JSON: unexpected EOF"},
		{"nested too deep", `{"tags":` + strings.Repeat("[", 129) + strings.Repeat("]", 129) + `}`, "params: nesting deeper than 128 levels (at byte 135)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p params
			err := DecodeParams(json.RawMessage(tt.raw), &p)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("DecodeParams = %v", err)
				}
				return
			}
			e, ok := err.(*Error)
			if !ok || e.Code != CodeInvalidParams || e.Message != tt.want {
				t.Fatalf("DecodeParams = %#v\nwant -32602 %q", err, tt.want)
			}
		})
	}
}

func TestDecodeParamsNonPointerIsInternal(t *testing.T) {
	var p struct{}
	if e, ok := DecodeParams(json.RawMessage(`{}`), p).(*Error); !ok || e.Code != CodeInternalError {
		t.Fatalf("got %v", e)
	}
}

// FuzzValuePath: any text and offset walk without a panic, and a path found names the members the
// decoder's Field names.
func FuzzValuePath(f *testing.F) {
	for _, seed := range []string{`{"messages":[{"role":5}]}`, `[1,[2,{"a":[]}]]`, `{"a":{}}`, `{`, `"x"`} {
		f.Add(seed, int64(5))
	}
	f.Fuzz(func(t *testing.T, raw string, offset int64) {
		if path, ok := valuePath([]byte(raw), offset); ok && strings.Contains(path, "..") {
			t.Fatalf("valuePath(%q, %d) = %q", raw, offset, path)
		}
		var v struct {
			A []struct {
				B int `json:"b"`
			} `json:"a"`
		}
		var typeErr *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(raw), &v); errors.As(err, &typeErr) {
			if path, ok := valuePath([]byte(raw), typeErr.Offset); ok && !strings.EqualFold(withoutIndices(path), typeErr.Field) {
				t.Fatalf("%q: valuePath %q, Field %q", raw, path, typeErr.Field)
			}
		}
	})
}
