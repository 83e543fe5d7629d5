package claudeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/npmclient"
)

// ClaudeCodeVersion is the Claude Code release the tests drive, the one this package's doc describes.
const ClaudeCodeVersion = "2.1.328"

// InstallDir is where Install keeps Claude Code: $HOME/.cache/saverd-clients/claude-code-VERSION, the
// directory .ci/run installs into.
func InstallDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("claude code install directory: %w", err)
	}
	return filepath.Join(home, ".cache", "saverd-clients", "claude-code-"+ClaudeCodeVersion), nil
}

// Install returns the path of the claude binary, installing the pinned release with npm when it is
// missing. It skips the test, with npm's words, only when npm is absent or cannot install it. Test
// binaries of several packages may call it at once: npmclient makes one of them install, and none run
// the binary before the install is whole.
func Install(t testing.TB) string {
	t.Helper()
	dir, err := InstallDir()
	if err != nil {
		t.Fatal(err)
	}
	if path := npmclient.Installed(dir, binaryIn); path != "" {
		return path
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("claudeapi: Claude Code %s is not in %s and npm is not installed to fetch it", ClaudeCodeVersion, dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	path, err := npmclient.Install(ctx, npm, dir, "@anthropic-ai/claude-code@"+ClaudeCodeVersion, binaryIn)
	var npmErr *npmclient.NPMError
	switch {
	case errors.As(err, &npmErr):
		t.Skipf("claudeapi: npm could not install Claude Code %s: %v", ClaudeCodeVersion, err)
	case err != nil:
		t.Fatalf("claudeapi: Claude Code %s for %s/%s: %v", ClaudeCodeVersion, runtime.GOOS, runtime.GOARCH, err)
	}
	return path
}

// binaryIn is findBinary's path, or "".
func binaryIn(dir string) string {
	path, _ := findBinary(dir)
	return path
}

// findBinary is the native claude binary of this platform's optional package, else the one npm links
// into node_modules/.bin.
func findBinary(dir string) (string, bool) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	candidates := []string{
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch, "claude"),
		filepath.Join(dir, "node_modules", ".bin", "claude"),
	}
	for _, p := range candidates {
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// Env is the environment the real client runs in: this process's, without any ANTHROPIC_* or CLAUDE_*
// variable, HOME, TMPDIR or proxy setting, plus HOME=home (its transcripts go to home/.claude/projects),
// TMPDIR=home too (it keeps a subagent's output and its sockets under $TMPDIR/claude-UID, which would
// otherwise outlive the test in /tmp), the API at baseURL with a dummy key, and no nonessential traffic
// (no update checks, telemetry or error reports). Append to it for more (SAVERD_SOCKET, ...).
func Env(home, baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(name, "ANTHROPIC_") || strings.HasPrefix(name, "CLAUDE_") || name == "HOME" || name == "TMPDIR" ||
			upper == "HTTP_PROXY" || upper == "HTTPS_PROXY" || upper == "ALL_PROXY" || upper == "NO_PROXY" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"TMPDIR="+home,
		"ANTHROPIC_BASE_URL="+baseURL,
		"ANTHROPIC_API_KEY="+apiKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// apiKey is the dummy key every run sends; the interactive UI asks once whether to use it.
const apiKey = "test"

// Result is the object `claude -p --output-format json` prints.
type Result struct {
	Type         string  `json:"type"`
	Subtype      string  `json:"subtype"`
	IsError      bool    `json:"is_error"`
	Result       string  `json:"result"`
	SessionID    string  `json:"session_id"`
	NumTurns     int     `json:"num_turns"`
	DurationMS   int64   `json:"duration_ms"`
	TotalCostUSD float64 `json:"total_cost_usd"`
	// Usage is this run's main-loop tokens, in the API's names.
	Usage Usage `json:"usage"`
	// ModelUsage is cumulative for the session (across resumes), subagents included, by model.
	ModelUsage map[string]ModelUsage `json:"modelUsage"`
}

// ModelUsage is one model's line of a result's modelUsage: Claude Code's own token counts and cost.
type ModelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
}

// ParseResult reads the -p JSON result from a run's stdout.
func ParseResult(stdout []byte) (Result, error) {
	var r Result
	if err := json.Unmarshal(bytes.TrimSpace(stdout), &r); err != nil {
		return Result{}, fmt.Errorf("claude -p result is not JSON: %w: %s", err, tail(stdout, 500))
	}
	if r.SessionID == "" {
		return Result{}, fmt.Errorf("claude -p result has no session_id: %s", tail(stdout, 500))
	}
	return r, nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		return "..." + string(b[len(b)-n:])
	}
	return string(b)
}
