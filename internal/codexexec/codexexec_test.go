package codexexec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestArgs(t *testing.T) {
	a := Args("gpt-5.5")
	if a[0] != "exec" || a[len(a)-1] != "-" || !slices.Contains(a, "--ephemeral") || !slices.Contains(a, "--json") {
		t.Errorf("Args = %q", a)
	}
	if i := slices.Index(a, "-m"); i < 0 || a[i+1] != "gpt-5.5" {
		t.Errorf("no -m gpt-5.5 in %q", a)
	}
	if slices.Contains(Args(""), "-m") {
		t.Error("an empty model still passes -m")
	}
}

func TestParse(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name, in, text, err string
		usage               Usage
	}{
		{name: "captured reply", in: read("exec-reply.jsonl"), text: "JUDGE REPLY\n1. the tests after every edit",
			usage: Usage{InputTokens: 600, CacheReadInputTokens: 5500, OutputTokens: 100}},
		{name: "captured failure", in: read("exec-failed.jsonl"), err: "the turn failed: We’re currently experiencing high demand"},
		{name: "cache writes", in: `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"ok"}}` + "\n" +
			`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":10,"cache_write_input_tokens":7,"output_tokens":3,"reasoning_output_tokens":1}}`,
			text: "ok", usage: Usage{InputTokens: 90, CacheReadInputTokens: 10, CacheCreationInputTokens: 7, OutputTokens: 3}},
		{name: "warnings are not failures", in: `{"type":"item.completed","item":{"id":"item_0","type":"error","message":"ignoring a setting"}}` + "\n\n" +
			`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"ok"}}` + "\n" +
			`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}` + "\n",
			text: "ok", usage: Usage{InputTokens: 1, OutputTokens: 1}},
		{name: "cut short", in: `{"type":"thread.started","thread_id":"x"}` + "\n" + `{"type":"error","message":"stream disconnected"}`, err: "ended before the turn completed: stream disconnected"},
		{name: "empty", in: "", err: "ended before the turn completed"},
		{name: "no message", in: `{"type":"turn.completed","usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0}}`, err: "no agent message"},
		{name: "not json", in: "{\"type\":\"turn.started\"}\nWARNING: x\n", err: "line 2 is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, usage, err := Parse(strings.NewReader(c.in))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err = %v; want %q", err, c.err)
				}
				return
			}
			if err != nil || text != c.text || usage != c.usage {
				t.Errorf("Parse = %q, %+v, %v; want %q, %+v", text, usage, err, c.text, c.usage)
			}
		})
	}
}
