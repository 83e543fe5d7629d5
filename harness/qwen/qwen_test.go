package qwen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
)

// fixture is one captured Qwen Code 0.24.4 directory (testdata/<name>/.qwen, byte-exact) and what the
// scripted server's log says it answered: its usage summed over the session's requests.
type fixture struct {
	name, session              string
	calls, prompts             int
	prompt, completion, cached int64
	tools                      map[string]int
}

var fixtures = []fixture{
	// qw2: `qwen -p`, then `--continue`, then `--resume <id>`: one file, three running-total lines in
	// usage_record.jsonl (3, 5 and 7 requests; summed they would say 15).
	{name: "qw2", session: "a7c2a832-fb6c-42c9-8d9e-446878b6b715", calls: 7, prompts: 3,
		prompt: 29638, completion: 308, cached: 2800, tools: map[string]int{"run_shell_command": 3, "read_file": 1}},
	// qw1: default settings (usage statistics on); qw3: `-o json`.
	{name: "qw1", session: "642826f2-561d-4caf-8068-c620402fe0df", calls: 3, prompts: 1,
		prompt: 6702, completion: 126, cached: 600, tools: map[string]int{"run_shell_command": 1, "read_file": 1}},
	{name: "qw3", session: "e8b6d95b-9895-49ce-93cb-766e9e63b1df", calls: 3, prompts: 1,
		prompt: 6702, completion: 126, cached: 600, tools: map[string]int{"run_shell_command": 1, "read_file": 1}},
}

// TestFixtures reads each captured directory as `saverd sessions` does and holds every token kind to
// the server's: input is the prompt less its cached part, output the completion (reasoning included).
func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			files, warn := Logs{}.Discover([]string{filepath.Join("testdata", fx.name, ".qwen")})
			if len(warn) > 0 || len(files) != 2 {
				t.Fatalf("Discover: %v, %q", files, warn)
			}
			recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1 (warnings %q)", len(recs), warn)
			}
			for _, w := range warn {
				if !strings.Contains(w, `no price for model "mock-model"`) {
					t.Errorf("warning %q", w)
				}
			}
			r := recs[0]
			want := agentlog.Tokens{Input: fx.prompt - fx.cached, CacheRead: fx.cached, Output: fx.completion}
			if r.SessionID != fx.session || r.Harness != "qwen-code" || r.Calls != fx.calls || r.Tokens != want {
				t.Errorf("record %s %s: %d calls, %+v; want %s, %d calls, %+v", r.Harness, r.SessionID, r.Calls, r.Tokens, fx.session, fx.calls, want)
			}
			if r.Cwd != "/home/dev/proj" || r.Cost.Total != nil || r.Cost.UnpricedTokens != want.Total() {
				t.Errorf("cwd %q, cost %+v", r.Cwd, r.Cost)
			}
			for k, v := range fx.tools {
				if r.Tools[k] != v {
					t.Errorf("tools %v, want %v", r.Tools, fx.tools)
				}
			}
			tr, err := Logs{}.History(r.Files[0], r.SessionID, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			calls, tok := 0, agentlog.Tokens{}
			for _, turn := range tr.Turns {
				calls += turn.Calls
				tok.Add(turn.Tokens)
			}
			if len(tr.Turns) != fx.prompts || calls != fx.calls || tok != want || tr.Cwd != "/home/dev/proj" || tr.Model != "mock-model" {
				t.Errorf("history: %d turns, %d calls, %+v; want %d, %d, %+v", len(tr.Turns), calls, tok, fx.prompts, fx.calls, want)
			}
			bash := 0
			for _, m := range tr.Messages {
				for _, u := range m.ToolUses {
					if u.Tool == "Bash" {
						bash++
					}
					if u.Text == nil || *u.Text == "" {
						t.Errorf("tool call %s has no result", u.ToolUseID)
					}
				}
			}
			if bash != fx.tools["run_shell_command"] {
				t.Errorf("%d Bash rows, want %d", bash, fx.tools["run_shell_command"])
			}
		})
	}
}

// TestUsageRecord: the running totals are never summed. A chat log that lost a run's calls is said to
// differ from them; a session whose chat was not recorded is read from its last running total.
func TestUsageRecord(t *testing.T) {
	copyFixture := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), ".qwen")
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "qw2", ".qwen"))); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	chat := filepath.Join("projects", "-home-dev-proj", "chats", "a7c2a832-fb6c-42c9-8d9e-446878b6b715.jsonl")
	t.Run("a run missing from the chat", func(t *testing.T) {
		dir := copyFixture(t)
		data, _ := os.ReadFile(filepath.Join(dir, chat))
		lines := strings.SplitAfter(string(data), "\n")
		if err := os.WriteFile(filepath.Join(dir, chat), []byte(strings.Join(lines[:len(lines)-8], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		files, _ := Logs{}.Discover([]string{dir})
		_, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
		if !strings.Contains(strings.Join(warn, "\n"), "usage_record.jsonl's running total (7 calls, 29638 prompt and 308 output tokens) differs") {
			t.Errorf("warnings %q", warn)
		}
	})
	t.Run("no chat recorded", func(t *testing.T) {
		dir := copyFixture(t)
		if err := os.Remove(filepath.Join(dir, chat)); err != nil {
			t.Fatal(err)
		}
		files, _ := Logs{}.Discover([]string{dir})
		recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
		if len(recs) != 1 {
			t.Fatalf("records %+v", recs)
		}
		r := recs[0]
		if r.Calls != 7 || r.Tokens != (agentlog.Tokens{Input: 29638 - 2800, CacheRead: 2800, Output: 308}) || r.Tools["run_shell_command"] != 3 || r.Cwd != "/home/dev/proj" {
			t.Errorf("record %+v", r)
		}
		if !strings.Contains(strings.Join(warn, "\n"), "no chat log, only usage_record.jsonl's running total (7 calls") {
			t.Errorf("warnings %q", warn)
		}
	})
}
