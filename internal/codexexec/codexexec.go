// Package codexexec is the judge's fork for a Codex session: the arguments of the `codex exec` run that
// answers the judge prompt (read from stdin, nothing persisted, no hooks, no shell), and the reader of
// its --json event stream (the final agent message, and the turn's tokens in the meanings saverd's
// session records use for both harnesses).
package codexexec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/saverd/saverd/state/judge"
)

// Usage is the fork's tokens under the judge's names: input not read from cache, cache reads, cache
// writes and output (reasoning included), as Claude Code's usage means them.
type Usage = judge.ForkUsage

// Args are the arguments of `codex exec` for one judge run with model ("" keeps the configured one).
// Observed with Codex CLI 0.169.0:
//   - `-` reads the prompt from stdin (a prompt too long for argv is fine);
//   - --ephemeral writes no rollout, so the judge never shows up as a session of its own;
//   - --disable hooks keeps the user's hooks (saverd's among them) from firing for the judge;
//   - shell_tool and unified_exec off remove exec_command, and the read-only sandbox keeps what tools
//     remain (apply_patch, request_user_input, tool_search) from changing the tree;
//   - the model rides in --model=<model>, one argument, so no model name can be read as an option;
//   - --skip-git-repo-check lets it run outside a repository.
func Args(model string) []string {
	args := []string{"exec", "--json", "--ephemeral", "--skip-git-repo-check",
		"--disable", "hooks", "--disable", "shell_tool", "--disable", "unified_exec",
		"--disable", "goals", "--disable", "view_image", "--disable", "image_generation",
		"--disable", "skill_search", "--disable", "apps", "-c", `web_search="disabled"`,
		"-s", "read-only"}
	if model != "" {
		args = append(args, "--model="+model) // one argument: a model is never read as an option
	}
	return append(args, "-")
}

// event is one line of `codex exec --json`.
type event struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Item     *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Usage *struct {
		InputTokens       int64 `json:"input_tokens"`
		CachedInputTokens int64 `json:"cached_input_tokens"`
		CacheWriteTokens  int64 `json:"cache_write_input_tokens"`
		OutputTokens      int64 `json:"output_tokens"`
	} `json:"usage"`
	Message string `json:"message"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Run is what one `codex exec --json` run said: the last agent message, the turn's tokens, and the
// thread it ran as. An --ephemeral run writes no rollout, so its thread id (the `thread.started` event's)
// is the only name the fork has: the forks log keeps it with the tokens, which nothing could read back.
type Run struct {
	Text     string
	Usage    Usage
	ThreadID string
}

// Parse reads a `codex exec --json` stream: the text of the last agent message, the usage of the
// completed turn and the thread id. Codex's input_tokens include the cached ones; Usage's InputTokens
// do not. A failed turn, a stream that ends before the turn completes, or a turn with no agent message is
// an error carrying Codex's own words; the usage read so far comes back with it, as what the run spent.
func Parse(r io.Reader) (Run, error) {
	var run Run
	br := bufio.NewReader(r)
	completed, lastErr := false, ""
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if len(line) > 0 && !blank(line) {
			var ev event
			if err := json.Unmarshal(line, &ev); err != nil {
				return Run{ThreadID: run.ThreadID}, fmt.Errorf("codex exec --json: line %d is not JSON: %w", n, err)
			}
			switch {
			case ev.Type == "thread.started":
				run.ThreadID = ev.ThreadID
			case ev.Type == "item.completed" && ev.Item != nil && ev.Item.Type == "agent_message":
				run.Text = ev.Item.Text
			case ev.Type == "turn.completed" && ev.Usage != nil:
				completed = true
				u := ev.Usage
				run.Usage.InputTokens += max(u.InputTokens-u.CachedInputTokens, 0)
				run.Usage.CacheReadInputTokens += u.CachedInputTokens
				run.Usage.CacheCreationInputTokens += u.CacheWriteTokens
				run.Usage.OutputTokens += u.OutputTokens
			case ev.Type == "turn.failed":
				msg := lastErr
				if ev.Error != nil && ev.Error.Message != "" {
					msg = ev.Error.Message
				}
				return failed(run), fmt.Errorf("codex exec: the turn failed: %s", msg)
			case ev.Type == "error":
				lastErr = ev.Message
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return failed(run), fmt.Errorf("read codex exec output: %w", rerr)
		}
	}
	switch {
	case !completed && lastErr != "":
		return failed(run), fmt.Errorf("codex exec: ended before the turn completed: %s", lastErr)
	case !completed:
		return failed(run), errors.New("codex exec: ended before the turn completed")
	case run.Text == "":
		return failed(run), errors.New("codex exec: the turn completed with no agent message")
	}
	return run, nil
}

// failed is what a run that failed still says: its thread and the tokens it spent, no text.
func failed(run Run) Run { return Run{Usage: run.Usage, ThreadID: run.ThreadID} }

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
