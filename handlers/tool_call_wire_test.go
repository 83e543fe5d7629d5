package handlers

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state/intake"
)

// agreeToolCall checks the one-pass reader against the full decoders on raw: whenever readToolCall takes
// a text, decode[session.ToolCallParams] and intake.ToolEventFromJSON take it too and read the same session,
// clock, duration, event and result, and the row built from either is the same. It reports whether the
// one-pass reader took raw.
func agreeToolCall(t testing.TB, raw []byte) bool {
	t.Helper()
	var at int64
	fast, fe, hasAt, ok := readToolCall(raw, &at, nil)
	if !ok {
		return false
	}
	if hasAt {
		fast.At = &at
	}
	slow, err := decode[session.ToolCallParams](raw)
	if err != nil {
		t.Fatalf("one-pass reader took %s, the full decoder refused it: %v", raw, err)
	}
	se, err := intake.ToolEventFromJSON(slow.Event)
	if err != nil {
		t.Fatalf("one-pass reader took %s, the full decoder refused its event: %v", raw, err)
	}
	switch {
	case fast.SessionID != slow.SessionID:
		t.Fatalf("%s: sessionId %q, full decoder %q", raw, fast.SessionID, slow.SessionID)
	case !reflect.DeepEqual(fast.At, slow.At):
		t.Fatalf("%s: at %v, full decoder %v", raw, fast.At, slow.At)
	case fast.Ms != slow.Ms:
		t.Fatalf("%s: ms %v, full decoder %v", raw, fast.Ms, slow.Ms)
	case !reflect.DeepEqual(fe.Map(), se.Map()):
		t.Fatalf("%s: event %#v, full decoder %#v", raw, fe, se)
	case !reflect.DeepEqual(fast.Result.Result, slow.Result.Result):
		t.Fatalf("%s: result %#v, full decoder %#v", raw, fast.Result.Result, slow.Result.Result)
	case fast.Result.IsError != slow.Result.IsError:
		t.Fatalf("%s: isError %v, full decoder %v", raw, fast.Result.IsError, slow.Result.IsError)
	case !reflect.DeepEqual(fast.Result.Deny, slow.Result.Deny):
		t.Fatalf("%s: deny %v, full decoder %v", raw, fast.Result.Deny, slow.Result.Deny)
	}
	if fr, sr := intake.RowOf(fe, fast.Result, 7, 3), intake.RowOf(se, slow.Result, 7, 3); !reflect.DeepEqual(fr, sr) {
		t.Fatalf("%s: row %#v, full decoder's %#v", raw, fr, sr)
	}
	return true
}

// toolCallSeeds are tool.call params as hosts send them, and texts at the edges of what the one-pass
// reader takes; taken says whether it should take each (the others are the full decoder's).
var toolCallSeeds = []struct {
	raw   string
	taken bool
}{
	{`{"sessionId":"s","at":5,"ms":1.5,"event":{"tool":"Bash","tool_use_id":"t","command":"npm test | tail"},"result":{"text":"ok"}}`, true},
	{`{"sessionId":"s","ms":40,"event":{"tool":"Read","tool_use_id":"r","file_path":"/a/b.go","offset":1e2,"limit":-0},"result":{"text":"     1\tpackage main\n     2\t\n\u00e9\u20ac\ud83d\ude00 \"quoted\" \\ back\r\n","result":{"type":"text","file":{"numLines":2,"truncatedByTokenCap":true}}}}`, true},
	{` { "sessionId" : "s" , "ms" : 0 , "event" : { "tool" : "Edit" , "tool_use_id" : "e" , "file_path" : "x" } , "result" : { "result" : { "gitDiff" : { "additions" : 3 , "deletions" : 1 } , "structuredPatch" : [ ] } , "isError" : false } } `, true},
	{`{"sessionId":"s","ms":1,"event":{"tool":"AskUserQuestion","tool_use_id":"q","questions":[{"q":"a (Recommended)","n":[1,2.50,3e-7]}]},"result":{"text":"` + strings.Repeat("é\\t", 60) + `"}}`, true},
	{`{"sessionId":"s","ms":1,"event":{"tool":"Bash","tool_use_id":"d","command":"rm -rf /"},"result":{"deny":"no \u003cway\u003e","text":null,"extra":[{"x":null}]}}`, true},
	{`{"sessionId":"s","ms":1,"event":{"tool":"Bash","tool_use_id":"d"},"result":{"deny":null,"isError":true,"text":"` + strings.Repeat("\\u0001", 100) + `tail"}}`, true},
	{`{"sessionId":"s","ms":1,"newer":{"a":[1,{"b":"c"}]},"event":{"tool":"Write","tool_use_id":"w","content":"a\nb\n"},"result":{}}`, true},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"},"result":{"text":"` + strings.Repeat("\\ud83d\\ude00", 45) + `"}}`, true},
	// ms at the edges of readFloat's integers: past 2^53, past int64, a sign, a fraction, an exponent.
	{`{"sessionId":"s","ms":999999999999999,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":9007199254740993,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":9223372036854775808,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":-0,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":-12,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":12.0,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	{`{"sessionId":"s","ms":12e3,"event":{"tool":"T","tool_use_id":"t"}}`, true},
	// The full decoder's: case-folded or doubled names, other types, escaped names, lone surrogates.
	{`{"SessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"}}`, false},
	{`{"sessionId":"s","sessionId":"t","ms":1,"event":{"tool":"T","tool_use_id":"t"}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t","a":1,"a":2}}`, false},
	{`{"sessionId":"s","ms":"1","event":{"tool":"T","tool_use_id":"t"}}`, false},
	{`{"sessionId":"s","at":1.0,"ms":1,"event":{"tool":"T","tool_use_id":"t"}}`, false},
	{`{"sessionId":"s","ms":1,"event":null}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"},"result":{"deny":{"why":1}}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"},"result":{"text":"\ud800"}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t","k\u0065y":1}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"}} x`, false},
	{`{"sessionId":"s","ms":01,"event":{"tool":"T","tool_use_id":"t"}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t"},"result":{"text":"a` + "\n" + `"}}`, false},
	{`{"sessionId":"s","ms":1,"event":{"tool":"T","tool_use_id":"t",}}`, false},
	{"{\"sessionId\":\"s\",\"ms\":1,\"event\":{\"tool\":\"T\",\"tool_use_id\":\"t\"},\"result\":{\"text\":\"\xff\"}}", false},
}

func TestReadToolCallAgrees(t *testing.T) {
	for _, c := range toolCallSeeds {
		if taken := agreeToolCall(t, []byte(c.raw)); taken != c.taken {
			t.Errorf("%s: taken by the one-pass reader %v, want %v", c.raw, taken, c.taken)
		}
	}
	for i := 0; i < fullsession.Calls; i++ {
		if raw := fullsession.ToolCall("s", i); !agreeToolCall(t, raw) {
			t.Fatalf("%s: left to the full decoder", raw)
		}
	}
}

// TestReadFloat: readFloat reads every number as strconv.ParseFloat does, to the bit (-0 included).
func TestReadFloat(t *testing.T) {
	for _, text := range []string{"0", "7", "40", " 40", "999999999999999", "9007199254740993", "9223372036854775807",
		"9223372036854775808", "123456789012345678901234567890", "-0", "-1", "-12.5", "1.5", "12.0", "1e3", "1E-2", "0.0"} {
		sc := jsonscan.New([]byte(text))
		v, ok := readFloat(&sc)
		want, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if !ok || err != nil || math.Float64bits(v) != math.Float64bits(want) || !sc.End() {
			t.Errorf("%q: read %v (%v), ParseFloat %v (%v)", text, v, ok, want, err)
		}
	}
	for _, text := range []string{"01", "-", "1.", "+1", "x", ""} {
		sc := jsonscan.New([]byte(text))
		if v, ok := readFloat(&sc); ok && sc.End() {
			t.Errorf("%q: read %v whole, want refused", text, v)
		}
	}
}

// FuzzReadToolCall: the one-pass reader and the full decoders agree on every text the reader takes.
func FuzzReadToolCall(f *testing.F) {
	for _, c := range toolCallSeeds {
		f.Add([]byte(c.raw))
	}
	for _, i := range []int{0, 7, 10, 13} {
		f.Add(fullsession.ToolCall("s", i))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		agreeToolCall(t, raw)
		// The same params as a host's encoder writes them back, HTML escapes and all.
		var v any
		if json.Unmarshal(raw, &v) == nil {
			if again, err := json.Marshal(v); err == nil {
				agreeToolCall(t, again)
			}
		}
	})
}

// BenchmarkReadToolCall is a tool.call's params read in one pass, a tool's output of six lines in them.
func BenchmarkReadToolCall(b *testing.B) {
	text := strings.Repeat(`     1\tline 1 of the file, with some code in it;\n`, 6)
	raw := []byte(`{"sessionId":"s","at":1000001,"ms":40,"event":{"tool":"Bash","tool_use_id":"t1","command":"cat src/file1.ts"},"result":{"text":"` + text + `"}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var at int64
		if _, _, _, ok := readToolCall(raw, &at, nil); !ok {
			b.Fatal("refused")
		}
	}
}
