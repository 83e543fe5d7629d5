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
//   - --skip-git-repo-check lets it run outside a repository.
func Args(model string) []string {
	args := []string{"exec", "--json", "--ephemeral", "--skip-git-repo-check",
		"--disable", "hooks", "--disable", "shell_tool", "--disable", "unified_exec",
		"--disable", "goals", "--disable", "view_image", "--disable", "image_generation",
		"--disable", "skill_search", "--disable", "apps", "-c", `web_search="disabled"`,
		"-s", "read-only"}
	if model != "" {
		args = append(args, "-m", model)
	}
	return append(args, "-")
}

// event is one line of `codex exec --json`.
type event struct {
	Type string `json:"type"`
	Item *struct {
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

// Parse reads a `codex exec --json` stream: the text of the last agent message and the usage of the
// completed turn. Codex's input_tokens include the cached ones; Usage's InputTokens do not. A failed
// turn, a stream that ends before the turn completes, or a turn with no agent message is an error
// carrying Codex's own words.
func Parse(r io.Reader) (text string, usage Usage, err error) {
	br := bufio.NewReader(r)
	completed, lastErr := false, ""
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if len(line) > 0 && !blank(line) {
			var ev event
			if err := json.Unmarshal(line, &ev); err != nil {
				return "", Usage{}, fmt.Errorf("codex exec --json: line %d is not JSON: %w", n, err)
			}
			switch {
			case ev.Type == "item.completed" && ev.Item != nil && ev.Item.Type == "agent_message":
				text = ev.Item.Text
			case ev.Type == "turn.completed" && ev.Usage != nil:
				completed = true
				u := ev.Usage
				usage.InputTokens += max(u.InputTokens-u.CachedInputTokens, 0)
				usage.CacheReadInputTokens += u.CachedInputTokens
				usage.CacheCreationInputTokens += u.CacheWriteTokens
				usage.OutputTokens += u.OutputTokens
			case ev.Type == "turn.failed":
				msg := lastErr
				if ev.Error != nil && ev.Error.Message != "" {
					msg = ev.Error.Message
				}
				return "", usage, fmt.Errorf("codex exec: the turn failed: %s", msg)
			case ev.Type == "error":
				lastErr = ev.Message
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return "", usage, fmt.Errorf("read codex exec output: %w", rerr)
		}
	}
	switch {
	case !completed && lastErr != "":
		return "", usage, fmt.Errorf("codex exec: ended before the turn completed: %s", lastErr)
	case !completed:
		return "", usage, errors.New("codex exec: ended before the turn completed")
	case text == "":
		return "", usage, errors.New("codex exec: the turn completed with no agent message")
	}
	return text, usage, nil
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
