package rpc

import (
	"bytes"
	"encoding/json"
	"testing"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/jsonscan"
)

// fullFrame is a frame's outer object as the full decoders read it, nil when they refuse it.
func fullFrame(data []byte) *wireIn {
	var w wireIn
	if kindOf(data) == kindObject && fastjson.Unmarshal(data, &w) == nil {
		return &w
	}
	w = wireIn{}
	if kindOf(data) != kindObject || json.Unmarshal(data, &w) != nil {
		return nil
	}
	return &w
}

// agreeFrame: whenever scanFrame takes a frame, the full decoders take it and read the same members, and
// the method name unquotes the same. It reports whether scanFrame took it.
func agreeFrame(t *testing.T, data []byte) bool {
	t.Helper()
	w := &wireIn{}
	if !scanFrame(data, w, nil) {
		return false
	}
	full := fullFrame(data)
	if full == nil {
		t.Fatalf("scanFrame took %s, the full decoders refused it", data)
	}
	for _, m := range []struct {
		name       string
		fast, full json.RawMessage
	}{{"jsonrpc", w.JSONRPC, full.JSONRPC}, {"id", w.ID, full.ID}, {"method", w.Method, full.Method},
		{"params", w.Params, full.Params}, {"result", w.Result, full.Result}, {"error", w.Error, full.Error}} {
		if (m.fast == nil) != (m.full == nil) || !bytes.Equal(m.fast, m.full) {
			t.Fatalf("%s: %s is %q, the full decoders read %q", data, m.name, m.fast, m.full)
		}
	}
	if kindOf(w.Method) == kindString {
		var want string
		wantOK := json.Unmarshal(w.Method, &want) == nil
		if got, ok := methodName(w.Method); ok != wantOK || got != want {
			t.Fatalf("%s: method %q (%v), encoding/json %q (%v)", data, got, ok, want, wantOK)
		}
		// A request after another reads the same method whatever the one before was called.
		for _, last := range []string{want, "tool.call", `a\b`, "a\b", ""} {
			if got, _, e := w.checkRequest(last); wantOK && e == nil && got != want {
				t.Fatalf("%s: after %q, method %q, encoding/json %q", data, last, got, want)
			}
		}
	}
	return true
}

var frameSeeds = []struct {
	raw   string
	taken bool
}{
	{`{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{"sessionId":"s","event":{"tool":"Bash"},"result":{"text":"a\nb"}}}`, true},
	{` {"jsonrpc" : "2.0", "id" : "x\u00e9", "method" : "to\u006fl.call" , "params" : [1, null] } `, true},
	{`{"jsonrpc":"2.0","id":null,"result":{"a":[]},"error":null,"extra":true}`, true},
	{`{"jsonrpc":"2.0","method":"exit"}`, true},
	{`{"jsonrpc":"2.0","id":2,"method":"a\b"}`, true},
	{`{"jsonrpc":"2.0","id":3,"method":"a\\b"}`, true},
	{`{"jsonrpc":"2.0","method":"\ud800"}`, false},
	{`{"JSONRPC":"2.0","method":"exit"}`, false},
	{`{"jsonrpc":"2.0","method":"exit","method":"shutdown"}`, false},
	{`{"jsonrpc":"2.0","method":"exit"} {}`, false},
	{`[{"jsonrpc":"2.0","method":"exit"}]`, false},
	{`{"jsonrpc":"2.0","method":"exit",}`, false},
	{`{"jsonrpc":"2.0","params":` + string(bytes.Repeat([]byte("["), 200)) + `}`, false},
}

func TestScanFrameAgrees(t *testing.T) {
	for _, c := range frameSeeds {
		if taken := agreeFrame(t, []byte(c.raw)); taken != c.taken {
			t.Errorf("%s: taken by scanFrame %v, want %v", c.raw, taken, c.taken)
		}
	}
}

// FuzzScanFrame: scanFrame and the full decoders agree on every frame scanFrame takes.
func FuzzScanFrame(f *testing.F) {
	for _, c := range frameSeeds {
		f.Add([]byte(c.raw))
	}
	f.Fuzz(func(t *testing.T, data []byte) { agreeFrame(t, data) })
}

// BenchmarkScanFrame is the envelope of a tool.call read in one pass, a tool's output of six lines in it.
func BenchmarkScanFrame(b *testing.B) {
	text := bytes.Repeat([]byte(`     1\tline 1 of the file, with some code in it;\n`), 6)
	frame := []byte(`{"jsonrpc":"2.0","id":123,"method":"tool.call","params":{"sessionId":"s","at":1000001,"ms":40,"event":{"tool":"Bash","tool_use_id":"t1","command":"cat src/file1.ts"},"result":{"text":"` + string(text) + `"}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	var w wireIn
	for b.Loop() {
		if !scanFrame(frame, &w, nil) {
			b.Fatal("refused")
		}
	}
}

// TestScanFrameParamsReaders: a method's reader reads its params in the frame's pass; params are the
// same text either way; a reader that refuses, a method after its params, a method with an escape or a
// frame the full decoders must decide leave Read nil.
func TestScanFrameParamsReaders(t *testing.T) {
	calls := 0
	readers := map[string]ParamsReader{
		"take": func(sc *jsonscan.Scanner) (any, bool) {
			calls++
			v, ok := sc.Value()
			return v, ok
		},
		"refuse": func(sc *jsonscan.Scanner) (any, bool) {
			calls++
			sc.Skip() // reads some, then refuses: the scan goes back
			return nil, false
		},
	}
	for _, c := range []struct {
		frame    string
		read     bool
		readerOK bool // the reader ran
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"take","params":{"a":[1,2]}}`, true, true},
		{`{"jsonrpc":"2.0","id":1,"method":"take","params": {"a":[1,2]} ,"x":1}`, true, true},
		{`{"jsonrpc":"2.0","id":1,"method":"refuse","params":{"a":[1,2]}}`, false, true},
		{`{"jsonrpc":"2.0","id":1,"params":{"a":1},"method":"take"}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"t\u0061ke","params":{"a":1}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"other","params":{"a":1}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"take","params":{"a":1},"params":{"a":2}}`, false, true},
	} {
		calls = 0
		var w wireIn
		err := parseFrame([]byte(c.frame), &w, readers)
		if err != nil {
			t.Errorf("%s: %v", c.frame, err)
			continue
		}
		if (w.Read != nil) != c.read || (calls > 0) != c.readerOK {
			t.Errorf("%s: Read %v after %d reader calls, want read %v, reader run %v", c.frame, w.Read, calls, c.read, c.readerOK)
		}
		var plain wireIn
		if parseFrame([]byte(c.frame), &plain, nil) != nil || !bytes.Equal(plain.Params, w.Params) || !bytes.Equal(plain.Method, w.Method) {
			t.Errorf("%s: params %s with the readers, %s without", c.frame, w.Params, plain.Params)
		}
	}
}
