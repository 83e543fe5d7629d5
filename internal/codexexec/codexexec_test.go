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
	if !slices.Contains(a, "--model=gpt-5.5") {
		t.Errorf("no --model=gpt-5.5 in %q", a)
	}
	if slices.ContainsFunc(Args(""), func(s string) bool { return strings.HasPrefix(s, "--model") || s == "-m" }) {
		t.Error("an empty model still passes --model")
	}
	// A model is one argument, whatever it holds: never an option of its own.
	hostile := Args("--dangerously-bypass-approvals-and-sandbox")
	if slices.Contains(hostile, "--dangerously-bypass-approvals-and-sandbox") {
		t.Errorf("a model became an option: %q", hostile)
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
		name, in, text, err, thread string
		usage                       Usage
	}{
		{name: "captured reply", in: read("exec-reply.jsonl"), text: "JUDGE REPLY\n1. the tests after every edit",
			usage: Usage{InputTokens: 600, CacheReadInputTokens: 5500, OutputTokens: 100}, thread: "00000000-0000-7000-8000-000000000001"},
		{name: "captured failure", in: read("exec-failed.jsonl"), err: "the turn failed: We’re currently experiencing high demand", thread: "00000000-0000-7000-8000-000000000001"},
		{name: "cache writes", in: `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"ok"}}` + "\n" +
			`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":10,"cache_write_input_tokens":7,"output_tokens":3,"reasoning_output_tokens":1}}`,
			text: "ok", usage: Usage{InputTokens: 90, CacheReadInputTokens: 10, CacheCreationInputTokens: 7, OutputTokens: 3}},
		{name: "warnings are not failures", in: `{"type":"item.completed","item":{"id":"item_0","type":"error","message":"ignoring a setting"}}` + "\n\n" +
			`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"ok"}}` + "\n" +
			`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}` + "\n",
			text: "ok", usage: Usage{InputTokens: 1, OutputTokens: 1}},
		{name: "cut short", in: `{"type":"thread.started","thread_id":"x"}` + "\n" + `{"type":"error","message":"stream disconnected"}`, err: "ended before the turn completed: stream disconnected", thread: "x"},
		{name: "empty", in: "", err: "ended before the turn completed"},
		{name: "no message", in: `{"type":"turn.completed","usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0}}`, err: "no agent message"},
		{name: "not json", in: "{\"type\":\"turn.started\"}\nWARNING: x\n", err: "line 2 is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, err := Parse(strings.NewReader(c.in))
			if run.ThreadID != c.thread {
				t.Errorf("thread %q; want %q", run.ThreadID, c.thread)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || run.Text != "" {
					t.Errorf("err = %v, text %q; want %q and no text", err, run.Text, c.err)
				}
				return
			}
			if err != nil || run.Text != c.text || run.Usage != c.usage {
				t.Errorf("Parse = %q, %+v, %v; want %q, %+v", run.Text, run.Usage, err, c.text, c.usage)
			}
		})
	}
}
