package forkcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// codexArgs is the built-in fork of a Codex session: `codex exec --json --ephemeral` (no rollout is
// written, so the fork is never read back as a session), the prompt on stdin, the session's model.
func codexArgs(req Request) []string {
	args := []string{"exec", "--json", "--ephemeral", "--skip-git-repo-check", "--sandbox", "read-only"}
	if req.Model != "" {
		args = append(args, "-m", req.Model)
	}
	return append(args, "-")
}

// parseCodex reads `codex exec --json`'s event stream: the last agent message is the reply, and the
// turns' usage adds up to the fork's tokens (input counted without its cached part, as Claude's is).
func parseCodex(out []byte) (Result, error) {
	var res Result
	found := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Item *struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
			Usage *struct {
				Input  int64 `json:"input_tokens"`
				Cached int64 `json:"cached_input_tokens"`
				Output int64 `json:"output_tokens"`
			} `json:"usage"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
			Message string `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch {
		case ev.Type == "item.completed" && ev.Item != nil && ev.Item.Type == "agent_message":
			res.Text, found = ev.Item.Text, true
		case ev.Type == "turn.completed" && ev.Usage != nil:
			res.Usage.InputTokens += ev.Usage.Input - ev.Usage.Cached
			res.Usage.CacheReadInputTokens += ev.Usage.Cached
			res.Usage.OutputTokens += ev.Usage.Output
		case ev.Type == "turn.failed" && ev.Error != nil:
			return Result{}, fmt.Errorf("the fork failed: %s", ev.Error.Message)
		case ev.Type == "error" && ev.Message != "":
			return Result{}, fmt.Errorf("the fork failed: %s", ev.Message)
		}
	}
	if !found {
		return Result{}, errors.New("the fork's event stream has no agent message")
	}
	return res, nil
}
