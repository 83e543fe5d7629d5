package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/internal/jsondepth"
	"github.com/saverd/saverd/rpc"
)

// TestScriptOnePassAgrees: a script read with the one-pass decode holds what reading every line the long
// way (encoding/json, a decode per part) holds, and fails where it fails, on the replay recordings and on
// lines of each kind, odd ones included.
func TestScriptOnePassAgrees(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"turn.start","params":{"sessionId":"s","at":5}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tool.call","params":{"sessionId":"s","at":"late"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tool.call","params":{"sessionId":7,"at":9}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tool.call","params":null}`,
		`{"jsonrpc":"2.0","id":4,"method":"tool.call","params":[1,2]}`,
		`{"jsonrpc":"2.0","id":5,"Method":"view.band","Params":{"SessionId":"s","AT":3}}`,
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":6,"method":"view.pane","params":{"sessionId":"s"}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":"fork-1","method":"model.fork","params":{"purpose":"judge"}}}`,
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":"fork-1","result":{"text":"[]"}}}`,
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":"fork-2","error":{"code":-1,"message":"no","data":{"a":1}}}}`,
		`{"dir":"in","raw":"{not json"}`,
		`{"dir":"out","raw":"x"}`,
		`{"dir":"in"}`,
		`{"dir":"in","msg":null}`,
		`{"dir":"sideways","msg":{"jsonrpc":"2.0","id":1,"method":"x"}}`,
		`{"dir":"in","msg":{"method":5}}`,
		`{"dir":5}`,
		`{"jsonrpc":"2.0","id":1,"method":["x"]}`,
		`[1,2]`,
		`"text"`,
		`{"jsonrpc":"2.0","id":8,"method":"tool.call","params":{"sessionId":"s","at":1,"result":{"text":"a\nb\u00e9"}}}`,
		`{"jsonrpc":"2.0","id":9,"id":10,"method":"view.band"}`,
		`{"jsonrpc":"2.0","id":null,"method":"view.band","params":{"sessionId":"s"}}`,
		`{"jsonrpc":"2.0","method":"tool\u002ecall","params":{"sessionId":"s\u00e9","at":-0}}`,
		`{"jsonrpc":null,"id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"sessionId":"a","SESSIONID":"b"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"at":1,"at":2}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"at":1e2,"sessionId":"z"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"at":12345678901234567890}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"\u0061t":3}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","ID":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","result":5}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","extra":{"deep":[1,2,{"a":null}]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x"} trailing`,
		` {"jsonrpc":"2.0","id" : 1 ,"method":"x","params": { "sessionId" : "s" , "at" : 7 } } `,
		`{"jsonrpc":"2.0","id":1,"method":"","params":{}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\xff\"}",
		// Lines as hosts write a tool.call (scanToolCallLine), and ones that only start like them.
		`{"jsonrpc":"2.0","id":0,"method":"tool.call","params":{"sessionId":"s","at":3}}`,
		`{"jsonrpc":"2.0","id":01,"method":"tool.call","params":{"sessionId":"s","at":3}}`,
		`{"jsonrpc":"2.0","id":-1,"method":"tool.call","params":{"sessionId":"s","at":3}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","at":3},"id":8}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","at":3} }`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","at":3}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","at":3}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":"x"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","at":tru}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":{"sessionId":"s","Method":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":` + nested(jsondepth.Max-2) + `}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":` + nested(jsondepth.Max-1) + `}`,
		`{"jsonrpc":"2.0","id":7,"method":"tool.call","params":` + nested(jsondepth.Max) + `}`,
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
				lines = append(lines, string(l))
			}
		}
	}
	for _, line := range lines {
		fast, slow := &Script{malformed: map[int]string{}}, &Script{malformed: map[int]string{}}
		fastIDs, slowIDs := map[string]string{}, map[string]string{}
		errFast := fast.add([]byte(line), fastIDs)
		var errSlow error
		if e, err := readLineSlow([]byte(line), slowIDs); err != nil {
			errSlow = err
		} else {
			slow.push(e)
		}
		if (errFast == nil) != (errSlow == nil) || (errFast != nil && errFast.Error() != errSlow.Error()) {
			t.Errorf("%s\n  one pass: %v\n  long way: %v", line, errFast, errSlow)
			continue
		}
		// tool.call's sessionId and at are read as the request is handled: compare them read.
		for _, s := range []*Script{fast, slow} {
			for i := range s.requests {
				s.requests[i].peek()
				s.requests[i].unread, s.requests[i].read = false, nil
			}
		}
		if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastIDs, slowIDs) {
			t.Errorf("%s\n  one pass: %+v %v\n  long way: %+v %v", line, fast, fastIDs, slow, slowIDs)
		}
	}
}

// TestPeekParamsAgrees: the replay's sessionId and at, read with the fast decoder, are what encoding/json
// reads (keys matched without case, a decode that fails partway keeping what it read).
func TestPeekParamsAgrees(t *testing.T) {
	for _, params := range []string{
		``, `null`, `{}`, `[1]`, `"s"`, `{"sessionId":"s","at":5}`, `{"SessionId":"s","AT":5}`, `{"sessionid":"s","At":5}`,
		`{"sessionId":7,"at":9}`, `{"at":9,"sessionId":7}`, `{"sessionId":"s","at":"late"}`, `{"sessionId":"s","at":1.5}`,
		`{"sessionId":"s","at":null}`, `{"sessionId":null,"at":3}`, `{"sessionId":"a","sessionId":"b","at":1,"at":2}`,
		`{"sessionId":"\u00e9\n","at":-4}`, `{"sessionId":"s","at":1e3}`, `{"sessionId":"s","at":99999999999999999999}`,
		`{"sessionId":"s","at":-0}`, `{"other":{"at":5},"at":6}`, `{"sessionId":"s","SESSIONID":"t"}`, ` { "at" : 8 } `,
	} {
		var want struct {
			SessionID string `json:"sessionId"`
			At        *int64 `json:"at"`
		}
		_ = json.Unmarshal([]byte(params), &want)
		id, at := peekParams(json.RawMessage(params))
		if id != want.SessionID || !reflect.DeepEqual(at, want.At) {
			t.Errorf("%s: got %q %v, encoding/json %q %v", params, id, at, want.SessionID, want.At)
		}
		if id, at, known := scanPeek([]byte(params)); known && (id != want.SessionID || !reflect.DeepEqual(at, want.At)) {
			t.Errorf("%s: one pass %q %v, encoding/json %q %v", params, id, at, want.SessionID, want.At)
		}
		// tool.call's params are peeked by the handler's own reader, when it takes them.
		if _, id, at, ok := handlers.ReadParams("tool.call", []byte(params)); ok && (id != want.SessionID || !reflect.DeepEqual(at, want.At)) {
			t.Errorf("%s: tool.call's reader %q %v, encoding/json %q %v", params, id, at, want.SessionID, want.At)
		}
	}
	// And it takes the shape every tool.call has.
	full := `{"sessionId":"s","at":12,"ms":3,"event":{"tool":"Bash","tool_use_id":"t","command":"ls"},"result":{"text":"x"}}`
	if _, id, at, ok := handlers.ReadParams("tool.call", []byte(full)); !ok || id != "s" || at == nil || *at != 12 {
		t.Errorf("tool.call's reader on %s: %q %v %v", full, id, at, ok)
	}
}

// TestFramesAsMaps: the frames a replay prints are byte for byte what encoding the frame as a map printed
// (sorted members, HTML unescaped, ids as the recording spelt them), a value that does not encode
// dropping its frame.
func TestFramesAsMaps(t *testing.T) {
	asMap := func(v map[string]any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
		return b.String()
	}
	values := []any{nil, "<a & b>", rpc.Encoded(`{"context":[]}`), rpc.Encoded(`{ "a" : [1, 2] }`), rpc.Encoded(`{"<":"&"}`), map[string]any{"z": 1, "a": []int{1}}, struct{ X string }{"\u2028"}, json.RawMessage(` { "a" : 1 } `),
		rpc.NewError(-32602, "bad <x>"), math.NaN(), make(chan int)}
	ids := []json.RawMessage{json.RawMessage(`7`), json.RawMessage(` "x" `), json.RawMessage(`{"a": 1}`), json.RawMessage(`0`),
		json.RawMessage(`007`), json.RawMessage(`-1`), json.RawMessage(`1e3`), json.RawMessage(`123456789012345678901234567890`), json.RawMessage(`7 `)}
	for _, v := range values {
		var got bytes.Buffer
		f := newFrameOut(&got)
		var want string
		f.notify("ui.toast", v)
		want += asMap(map[string]any{"jsonrpc": "2.0", "method": "ui.toast", "params": v})
		f.call(1, "model.fork", v)
		want += asMap(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "model.fork", "params": v})
		for _, id := range ids {
			f.result(id, v)
			want += asMap(map[string]any{"jsonrpc": "2.0", "id": id, "result": v})
		}
		if e, ok := v.(*rpc.Error); ok {
			f.fail(ids[1], e)
			want += asMap(map[string]any{"jsonrpc": "2.0", "id": ids[1], "error": e})
			f.fail(nil, e)
			want += asMap(map[string]any{"jsonrpc": "2.0", "id": nil, "error": e})
		}
		f.flush()
		if got.String() != want {
			t.Errorf("%#v:\n got %s\nwant %s", v, got.String(), want)
		}
	}
}

// nested is an object n levels deep.
func nested(n int) string { return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1) }
