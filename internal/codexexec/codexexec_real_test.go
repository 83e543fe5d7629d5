package codexexec_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
	"github.com/saverd/saverd/internal/codexexec"
	"github.com/saverd/saverd/internal/golden"
)

// TestRealCodexExec runs the judge's `codex exec` against a scripted Responses API with saverd's hooks
// installed, and keeps its output under testdata/ for TestParse.
func TestRealCodexExec(t *testing.T) {
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	root := t.TempDir()
	home, proj := filepath.Join(root, "codex"), filepath.Join(root, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", root)
	t.Setenv("CODEX_HOME", home)
	const prompt = "JUDGE PROMPT: name the habits in this ledger.\n"

	t.Run("reply", func(t *testing.T) {
		srv, err := codexapi.Start(
			codexapi.Step{Text: "looking", Calls: []codexapi.Call{{Name: "exec_command", Arguments: map[string]any{"cmd": "touch escaped"}}}, Usage: codexapi.Usage{Input: 3000, Cached: 2500, Output: 40, Reasoning: 10}},
			codexapi.Step{Text: "JUDGE REPLY\n1. the tests after every edit", Usage: codexapi.Usage{Input: 3100, Cached: 3000, Output: 60}},
		)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		codexcli.Home(t, home, srv.URL, "")
		// saverd's hooks, trusted, with a hook that leaves a mark: the judge must not fire it.
		mark := filepath.Join(root, "hook-ran")
		hook := filepath.Join(root, "bin", "saverd")
		if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+mark+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := install.Install(install.Options{Target: codex.Harness{}, Scope: "user", Bin: hook}); err != nil {
			t.Fatal(err)
		}
		res := codexcli.Run(t, bin, home, proj, prompt, codexexec.Args("gpt-5.5")...)
		if res.Err != nil {
			t.Fatalf("codex %s: %v\n%s", strings.Join(codexexec.Args("gpt-5.5"), " "), res.Err, res.Stderr)
		}
		golden.Check(t, "exec-reply.jsonl", sanitize(res.Stdout))
		run, err := codexexec.Parse(strings.NewReader(res.Stdout))
		if err != nil || run.Text != "JUDGE REPLY\n1. the tests after every edit" {
			t.Errorf("Parse = %q, %v", run.Text, err)
		}
		if want := (codexexec.Usage{InputTokens: 600, CacheReadInputTokens: 5500, OutputTokens: 100}); run.Usage != want {
			t.Errorf("usage %+v, want %+v", run.Usage, want)
		}
		if !uuidLike.MatchString(run.ThreadID) {
			t.Errorf("thread id %q: the fork has no name to be recorded by", run.ThreadID)
		}
		reqs := srv.Responses()
		if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), "JUDGE PROMPT: name the habits") {
			t.Fatalf("%d requests; want the stdin prompt in the first", len(reqs))
		}
		if !strings.Contains(string(reqs[0].Body), `"model":"gpt-5.5"`) {
			t.Errorf("--model=gpt-5.5 did not reach the request: %.300s", reqs[0].Body)
		}
		if strings.Contains(string(reqs[0].Body), `"name":"exec_command"`) || strings.Contains(string(reqs[0].Body), `"name":"shell"`) {
			t.Error("the judge was offered a shell tool")
		}
		if _, err := os.Stat(filepath.Join(proj, "escaped")); err == nil {
			t.Error("the judge's tool call ran a command")
		}
		if _, err := os.Stat(mark); err == nil {
			t.Error("a hook fired for the judge")
		}
		if rollouts, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "*.jsonl")); len(rollouts) != 0 {
			t.Errorf("--ephemeral wrote %v", rollouts)
		}
	})

	t.Run("failed request", func(t *testing.T) {
		srv, err := codexapi.Start(codexapi.Step{Status: 500})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		codexcli.Home(t, home, srv.URL, "")
		args := append([]string{"-c", "model_providers.mock.request_max_retries=0", "-c", "model_providers.mock.stream_max_retries=0"}, codexexec.Args("gpt-5.5")...)
		res := codexcli.Run(t, bin, home, proj, prompt, args...)
		if res.Err == nil {
			t.Error("codex exec exited 0 after a failed request")
		}
		golden.Check(t, "exec-failed.jsonl", sanitize(res.Stdout))
		if _, err := codexexec.Parse(strings.NewReader(res.Stdout)); err == nil || !strings.Contains(err.Error(), "the turn failed") {
			t.Errorf("Parse err = %v; want the failed turn", err)
		}
	})
}

var threadID = regexp.MustCompile(`"thread_id":"[^"]+"`)

func sanitize(s string) string {
	return threadID.ReplaceAllString(s, `"thread_id":"00000000-0000-7000-8000-000000000001"`)
}

// uuidLike is a thread id as Codex makes them.
var uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
