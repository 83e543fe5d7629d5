package state

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJudgeStateJSON: the two judges are one Go type, and each still writes its own shape, leaving
// `& < >` to the encoder that embeds it.
func TestJudgeStateJSON(t *testing.T) {
	s := New("/w", 1)
	s.Judge.Error = Ptr("a<b&c")
	s.Process.Error = Ptr("a<b&c")
	cases := []struct {
		name   string
		v      any
		escape bool
		want   string
	}{
		{"habit", s.Judge, true, `{"lastAtTokens":0,"lastAtTurn":0,"lastAtSeq":0,"lastAtMs":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a\u003cb\u0026c","focus":null,"time":null,"context":null,"last":null}`},
		{"process", s.Process, true, `{"lastAtMs":0,"lastAtSeq":0,"lastAtTurn":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a\u003cb\u0026c","last":null}`},
		{"process unescaped", s.Process, false, `{"lastAtMs":0,"lastAtSeq":0,"lastAtTurn":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a<b&c","last":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(c.escape)
			if err := enc.Encode(c.v); err != nil {
				t.Fatal(err)
			}
			if got := string(bytes.TrimSpace(buf.Bytes())); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
