package rpc

import (
	"encoding/json"
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
