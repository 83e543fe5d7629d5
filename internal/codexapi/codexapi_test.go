package codexapi

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestScript(t *testing.T) {
	s, err := Start(
		Step{Calls: []Call{{Name: "exec_command", Arguments: map[string]any{"cmd": "ls"}}}, Usage: Usage{Input: 10, Cached: 4, Output: 2, Reasoning: 1}},
		Step{Status: 500},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(body string) (int, string) {
		resp, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		status int
		want   []string
	}{
		{200, []string{"event: response.output_item.done\n", `"type":"function_call"`, `"name":"exec_command"`, `"arguments":"{\"cmd\":\"ls\"}"`,
			"event: response.completed\n", `"input_tokens":10`, `"cached_tokens":4`, `"reasoning_tokens":1`}},
		{500, []string{"scripted failure"}},
		{200, []string{`"type":"message"`, `"text":"done"`}}, // past the script: the fallback
	} {
		status, body := post(`{"input":[{"type":"message","role":"user"}]}`)
		if status != c.status {
			t.Errorf("status %d, want %d", status, c.status)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("body lacks %s:\n%s", w, body)
			}
		}
	}
	if resp, err := http.Get(s.URL + "/models"); err != nil || resp.StatusCode != 404 {
		t.Errorf("GET /models: %v %v", resp, err)
	}
	if got := len(s.Requests()); got != 4 {
		t.Errorf("%d requests recorded, want 4", got)
	}
	r := s.Responses()
	if len(r) != 3 || r[0].Input()[0]["role"] != "user" {
		t.Errorf("responses %d; input %v", len(r), r[0].Input())
	}
}
