package claudeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/golden"
)

// post sends body to srv's path and returns the status and the body.
func post(t *testing.T, srv *Server, path, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// sse is one server-sent event as read back.
type sse struct {
	name string
	data map[string]any
}

func parseSSE(t *testing.T, body []byte) []sse {
	t.Helper()
	var evs []sse
	sc := bufio.NewScanner(bytes.NewReader(body))
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("event %s: data is not JSON: %v", name, err)
			}
			if d["type"] != name {
				t.Errorf("event %s carries data of type %v", name, d["type"])
			}
			evs = append(evs, sse{name, d})
		case line == "":
		default:
			t.Fatalf("unexpected line in the stream: %q", line)
		}
	}
	return evs
}

// assembled is a streamed message put back together as a client does: blocks from their start and
// deltas, the stop reason and usage from message_start and message_delta.
type assembled struct {
	id, stop     string
	blocks       []map[string]any
	startUsage   map[string]any
	deltaUsage   map[string]any
	names        []string
	partialJSONs int
}

func assemble(t *testing.T, evs []sse) assembled {
	t.Helper()
	var a assembled
	texts := map[int]*strings.Builder{}
	for _, ev := range evs {
		a.names = append(a.names, ev.name)
		switch ev.name {
		case "message_start":
			msg := ev.data["message"].(map[string]any)
			a.id = msg["id"].(string)
			a.startUsage = msg["usage"].(map[string]any)
		case "content_block_start":
			a.blocks = append(a.blocks, ev.data["content_block"].(map[string]any))
			texts[len(a.blocks)-1] = &strings.Builder{}
		case "content_block_delta":
			i := int(ev.data["index"].(float64))
			d := ev.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				texts[i].WriteString(d["text"].(string))
			case "input_json_delta":
				texts[i].WriteString(d["partial_json"].(string))
				a.partialJSONs++
			}
		case "message_delta":
			a.stop = ev.data["delta"].(map[string]any)["stop_reason"].(string)
			a.deltaUsage = ev.data["usage"].(map[string]any)
		}
	}
	for i, b := range a.blocks {
		switch b["type"] {
		case "text":
			b["text"] = texts[i].String()
		case "tool_use":
			var input any
			if err := json.Unmarshal([]byte(texts[i].String()), &input); err != nil {
				t.Fatalf("block %d: the input deltas do not join into JSON: %v", i, err)
			}
			b["input"] = input
		}
	}
	return a
}

const minimalRequest = `{"model":"claude-test","max_tokens":100,"stream":%v,"messages":[{"role":"user","content":"hello"}]}`

func TestStream(t *testing.T) {
	long := strings.Repeat("a long input é ", 20)
	tests := []struct {
		name      string
		reply     Reply
		wantStop  string
		wantTypes []string
		wantUsage Usage
	}{
		{"text", Text("Hello, world.").WithUsage(Usage{Input: 10, Output: 4, CacheRead: 100, CacheCreation: 7}),
			"end_turn", []string{"text"}, Usage{Input: 10, Output: 4, CacheRead: 100, CacheCreation: 7}},
		{"one tool use", ToolUse("Bash", map[string]string{"command": "echo hi"}).WithUsage(Usage{Input: 1, Output: 2}),
			"tool_use", []string{"tool_use"}, Usage{Input: 1, Output: 2}},
		{"text and two tool uses", Text("Two reads.").Plus(ToolUse("Read", map[string]string{"file_path": "/a", "note": long}), ToolUse("Read", nil)).WithUsage(Usage{Output: 9}),
			"tool_use", []string{"text", "tool_use", "tool_use"}, Usage{Output: 9}},
		{"stop reason kept", Reply{Content: []Block{{Type: "text", Text: "cut"}}, StopReason: "max_tokens", Usage: &Usage{Output: 1}},
			"max_tokens", []string{"text"}, Usage{Output: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, Steps(tt.reply))
			status, body := post(t, srv, "/v1/messages?beta=true", fmt.Sprintf(minimalRequest, true))
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			a := assemble(t, parseSSE(t, body))
			if a.names[0] != "message_start" || a.names[len(a.names)-1] != "message_stop" || a.names[len(a.names)-2] != "message_delta" {
				t.Errorf("events %v: want message_start first, message_delta then message_stop last", a.names)
			}
			if a.stop != tt.wantStop {
				t.Errorf("stop_reason %q, want %q", a.stop, tt.wantStop)
			}
			if got := usageOf(a.deltaUsage); got != tt.wantUsage {
				t.Errorf("message_delta usage %+v, want %+v", got, tt.wantUsage)
			}
			if got := usageOf(a.startUsage); got.Input != tt.wantUsage.Input || got.CacheRead != tt.wantUsage.CacheRead || got.CacheCreation != tt.wantUsage.CacheCreation {
				t.Errorf("message_start usage %+v, want the input figures of %+v", got, tt.wantUsage)
			}
			var types []string
			ids := map[string]bool{}
			for i, b := range a.blocks {
				types = append(types, b["type"].(string))
				want := tt.reply.Content[i]
				switch want.Type {
				case "text":
					if b["text"] != want.Text {
						t.Errorf("block %d text %q, want %q", i, b["text"], want.Text)
					}
				case "tool_use":
					id, _ := b["id"].(string)
					if !strings.HasPrefix(id, "toolu_") || ids[id] {
						t.Errorf("block %d id %q: want a new toolu_ id", i, id)
					}
					ids[id] = true
					if b["name"] != want.Name || !sameJSON(t, b["input"], want.Input) {
						t.Errorf("block %d: %v %v, want %s %v", i, b["name"], b["input"], want.Name, want.Input)
					}
				}
			}
			if strings.Join(types, ",") != strings.Join(tt.wantTypes, ",") {
				t.Errorf("block types %v, want %v", types, tt.wantTypes)
			}
		})
	}
}

func TestStreamSplitsDeltas(t *testing.T) {
	srv := New(t, Steps(ToolUse("Write", map[string]string{"content": strings.Repeat("x", 3*deltaSize)})))
	_, body := post(t, srv, "/v1/messages", fmt.Sprintf(minimalRequest, true))
	if a := assemble(t, parseSSE(t, body)); a.partialJSONs < 3 {
		t.Errorf("a %d-byte input came in %d input_json_delta events, want it split", 3*deltaSize, a.partialJSONs)
	}
}

// TestStreamBytes pins the exact stream of one reply with a text and a tool use.
func TestStreamBytes(t *testing.T) {
	srv := New(t, Steps(Text("Looking.").Plus(ToolUse("Read", map[string]string{"file_path": "/tmp/a.go"})).
		WithUsage(Usage{Input: 12, Output: 34, CacheRead: 5600, CacheCreation: 78})))
	_, body := post(t, srv, "/v1/messages?beta=true", fmt.Sprintf(minimalRequest, true))
	golden.Check(t, "stream.txt", string(body))
}

func TestNonStreaming(t *testing.T) {
	srv := New(t, Steps(Text("Plain.").Plus(ToolUse("Bash", map[string]string{"command": "ls"})).WithUsage(Usage{Input: 3, Output: 4})))
	status, body := post(t, srv, "/v1/messages", fmt.Sprintf(minimalRequest, false))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var msg struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		Role       string `json:"role"`
		Model      string `json:"model"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			ID    string          `json:"id"`
			Input json.RawMessage `json:"input"`
		} `json:"content"`
		Usage Usage `json:"usage"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("not a message: %v: %s", err, body)
	}
	if msg.Type != "message" || msg.Role != "assistant" || msg.Model != "claude-test" || msg.StopReason != "tool_use" ||
		!strings.HasPrefix(msg.ID, "msg_") || msg.Usage != (Usage{Input: 3, Output: 4}) {
		t.Errorf("message %s", body)
	}
	if len(msg.Content) != 2 || msg.Content[0].Text != "Plain." || string(msg.Content[1].Input) != `{"command":"ls"}` {
		t.Errorf("content %s", body)
	}
}

func TestErrorsAndOtherEndpoints(t *testing.T) {
	tests := []struct {
		name       string
		script     Script
		path, body string
		wantStatus int
		wantType   string
		recorded   bool // in Requests
	}{
		{"scripted error", Steps(Error(529, "overloaded_error", "Overloaded")), "/v1/messages", fmt.Sprintf(minimalRequest, true), 529, "overloaded_error", true},
		{"script ran out", Steps(), "/v1/messages", fmt.Sprintf(minimalRequest, true), 400, "invalid_request_error", true},
		{"no route", Route(), "/v1/messages", fmt.Sprintf(minimalRequest, true), 400, "invalid_request_error", true},
		{"bad tool input", Steps(ToolUse("Bash", json.RawMessage("{"))), "/v1/messages", fmt.Sprintf(minimalRequest, true), 500, "api_error", true},
		{"body not JSON", Steps(Text("x")), "/v1/messages", "{", 400, "invalid_request_error", false},
		{"no model", Steps(Text("x")), "/v1/messages", `{"messages":[]}`, 400, "invalid_request_error", false},
		{"content neither string nor list", Steps(Text("x")), "/v1/messages", `{"model":"m","messages":[{"role":"user","content":3}]}`, 400, "invalid_request_error", false},
		{"unknown endpoint", Steps(Text("x")), "/v1/models", "", 404, "not_found_error", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(quiet{t}, tt.script)
			status, body := post(t, srv, tt.path, tt.body)
			var e struct {
				Type  string `json:"type"`
				Error struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Type != "error" || e.Error.Message == "" {
				t.Errorf("body %s: want an API error object", body)
			}
			if status != tt.wantStatus || e.Error.Type != tt.wantType {
				t.Errorf("status %d type %q, want %d %q", status, e.Error.Type, tt.wantStatus, tt.wantType)
			}
			if got := len(srv.Requests()) == 1; got != tt.recorded {
				t.Errorf("recorded in Requests: %v, want %v", got, tt.recorded)
			}
			if !tt.recorded && len(srv.Others()) != 1 {
				t.Errorf("Others = %+v, want the one call", srv.Others())
			}
		})
	}
}

// quiet is a testing.TB whose Errorf is a Logf: the server's own report of a bad reply is what the
// "bad tool input" case provokes.
type quiet struct{ *testing.T }

func (q quiet) Errorf(format string, args ...any) { q.Logf(format, args...) }

func TestCountTokens(t *testing.T) {
	srv := New(t, Steps())
	status, body := post(t, srv, "/v1/messages/count_tokens?beta=true", `{"model":"m","messages":[{"role":"user","content":"abcdefgh"}]}`)
	var got struct {
		InputTokens int `json:"input_tokens"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &got) != nil || got.InputTokens <= 0 {
		t.Errorf("count_tokens: %d %s", status, body)
	}
}

func TestRoute(t *testing.T) {
	srv := New(t, Route(
		Case{Match: func(r Request) bool { return strings.Contains(r.SystemText(), "judge") }, Script: Steps(Text("judged"))},
		Case{Match: func(r Request) bool { return r.LastUserText() == "sub" }, Script: Steps(Text("sub 1"), Text("sub 2"))},
		Case{Match: func(Request) bool { return true }, Script: Steps(Text("main"))},
	))
	ask := func(system, user string) string {
		body := fmt.Sprintf(`{"model":"m","stream":false,"system":%q,"messages":[{"role":"user","content":%q}]}`, system, user)
		_, b := post(t, srv, "/v1/messages", body)
		var msg struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(b, &msg); err != nil || len(msg.Content) != 1 {
			t.Fatalf("reply %s", b)
		}
		return msg.Content[0].Text
	}
	got := []string{ask("you judge", "x"), ask("", "sub"), ask("", "hello"), ask("", "sub")}
	if want := "judged,sub 1,main,sub 2"; strings.Join(got, ",") != want {
		t.Errorf("answers %v, want %s", got, want)
	}
}

// TestConcurrent: requests at once (a subagent beside the main loop) each get one step, and every one
// is recorded with its own number.
func TestConcurrent(t *testing.T) {
	const n = 20
	replies := make([]Reply, n)
	for i := range replies {
		replies[i] = ToolUse("Read", map[string]int{"i": i})
	}
	srv := New(t, Steps(replies...))
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if status, body := post(t, srv, "/v1/messages", fmt.Sprintf(minimalRequest, true)); status != http.StatusOK {
				t.Errorf("status %d: %s", status, body)
			}
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, r := range srv.Requests() {
		seen[r.Seq] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct request numbers, want %d", len(seen), n)
	}
}

func TestRequestText(t *testing.T) {
	body := `{"model":"claude-opus-5-5","stream":true,"max_tokens":9,
	  "system":[{"type":"text","text":"You are Claude."},{"type":"text","text":"Be brief."}],
	  "tools":[{"name":"Bash","description":"Run a command","input_schema":{"type":"object"}}],
	  "messages":[
	    {"role":"user","content":[{"type":"text","text":"<reminder>"},{"type":"text","text":"run it"}]},
	    {"role":"system","content":"# Environment"},
	    {"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo hi"}}]},
	    {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"hi"},{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"exit 1"}]},{"type":"text","text":"and?"}]}
	  ]}`
	r, err := decodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"model", r.Model, "claude-opus-5-5"},
		{"system", r.SystemText(), "You are Claude.\nBe brief."},
		{"last user", r.LastUserText(), "hi\nexit 1\nand?"},
		{"tools", strings.Join(r.ToolNames(), ","), "Bash"},
		{"result toolu_1", r.ToolResults()["toolu_1"], "hi"},
		{"result toolu_2", r.ToolResults()["toolu_2"], "exit 1"},
		{"text", r.Text(), "You are Claude.\nBe brief.\n<reminder>\nrun it\n# Environment\nhmm\nBash {\"command\":\"echo hi\"}\nhi\nexit 1\nand?"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if !r.Stream || r.MaxTokens != 9 || r.JSON["max_tokens"] != float64(9) || len(r.Messages) != 4 || !r.Messages[3].Content[1].IsError {
		t.Errorf("decoded %+v", r)
	}
}

func TestSplit(t *testing.T) {
	s := strings.Repeat("é", deltaSize) // two bytes a rune: a cut in the middle of one must move
	var joined strings.Builder
	for _, p := range split(s) {
		if len(p) > deltaSize || !utf8.ValidString(p) {
			t.Errorf("piece of %d bytes, valid UTF-8 %v", len(p), utf8.ValidString(p))
		}
		joined.WriteString(p)
	}
	if joined.String() != s {
		t.Error("pieces do not join back")
	}
	if got := split(""); len(got) != 1 || got[0] != "" {
		t.Errorf("split(\"\") = %q, want one empty piece", got)
	}
}

func usageOf(m map[string]any) Usage {
	b, _ := json.Marshal(m)
	var u Usage
	_ = json.Unmarshal(b, &u)
	return u
}

func sameJSON(t *testing.T, got, want any) bool {
	t.Helper()
	if want == nil {
		want = map[string]any{}
	}
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	gb, _ := json.Marshal(gv)
	wb, _ := json.Marshal(wv)
	return bytes.Equal(gb, wb)
}
