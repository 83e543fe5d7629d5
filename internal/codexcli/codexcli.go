// Package codexcli runs the real Codex CLI offline for tests: it finds (or installs with npm) the
// pinned @openai/codex, writes a CODEX_HOME whose model provider is a scripted Responses API on
// 127.0.0.1, and re-runs a test inside a network namespace of its own (unshare -n) so the client can
// reach nothing but that server.
package codexcli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/npmclient"
)

// Version is the Codex CLI these tests pin; protocol.md's Codex section was observed with it.
const Version = "0.169.0"

const netnsEnv = "SAVERD_CODEX_NETNS"

// Binary returns the native codex binary, installing @openai/codex@Version with npm into
// ~/.cache/saverd-clients/codex-Version when it is missing. The test is skipped, saying why, only when
// the client cannot be installed.
func Binary(t testing.TB) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("real Codex CLI: no home directory to install it under: %v", err)
	}
	dir := filepath.Join(home, ".cache", "saverd-clients", "codex-"+Version)
	if bin := npmclient.Installed(dir, find); bin != "" {
		return bin
	}
	if os.Getenv(netnsEnv) != "" {
		t.Fatalf("real Codex CLI: not installed under %s (the parent test installs it before entering the namespace)", dir)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("real Codex CLI: not under %s and npm is not on PATH to install @openai/codex@%s", dir, Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := npmclient.Install(ctx, npm, dir, "@openai/codex@"+Version, find)
	if err != nil {
		t.Skipf("real Codex CLI: %v", err)
	}
	return bin
}

// find returns the platform's native binary under an npm prefix, else "".
func find(dir string) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@openai", "codex*", "vendor", "*", "bin", "codex"))
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.Mode()&0o111 != 0 {
			return m
		}
	}
	return ""
}

// Offline re-runs the calling test inside a new network namespace with only the loopback up. It
// returns true in that re-run (go on with the test) and false in the caller, after reporting the
// re-run's outcome as its own. Call Binary first, so the client is installed while npm is reachable.
func Offline(t *testing.T) bool {
	t.Helper()
	if os.Getenv(netnsEnv) != "" {
		if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
			t.Fatalf("ip link set lo up inside the namespace: %v\n%s", err, out)
		}
		return true
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatal("unshare (util-linux) is not on PATH: the real Codex CLI test runs it offline with `unshare -n`")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Fatal("ip (iproute2) is not on PATH: the real Codex CLI test brings up the namespace's loopback with it")
	}
	flags := "-n"
	if os.Getuid() != 0 {
		flags = "-rn" // an unprivileged user maps itself to root in a user namespace first
	}
	args := append([]string{flags, os.Args[0]}, os.Args[1:]...)
	args = append(args, "-test.run=^"+strings.ReplaceAll(t.Name(), "/", "$/^")+"$", "-test.v")
	cmd := exec.Command(unshare, args...)
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("the test inside `unshare %s` failed: %v", flags, err)
	}
	if !strings.Contains(out.String(), "--- PASS: "+t.Name()) {
		t.Fatal("the test inside the namespace did not report a pass")
	}
	return false
}

// Home writes a CODEX_HOME whose config sends every model request to baseURL (a scripted Responses API)
// and turns off what would reach the network; extra is appended to config.toml.
func Home(t testing.TB, dir, baseURL, extra string) string {
	t.Helper()
	cfg := fmt.Sprintf(`model_provider = "mock"
approval_policy = "never"

[model_providers.mock]
name = "mock"
base_url = %q
wire_api = "responses"
env_key = "MOCK_API_KEY"

[features]
plugins = false
remote_plugin = false

[analytics]
enabled = false
`, baseURL)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg+extra), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Result is what one codex run printed.
type Result struct {
	Stdout, Stderr string
	Err            error
}

// Run runs the codex binary with args in dir, CODEX_HOME=home, stdin as its input, bounded to a minute.
func Run(t testing.TB, bin, home, dir, stdin string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "MOCK_API_KEY=test", "NO_COLOR=1")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	return Result{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
}
