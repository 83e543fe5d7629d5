package claudeapi

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-real")
	t.Setenv("ANTHROPIC_MODEL", "claude-other")
	t.Setenv("CLAUDE_CONFIG_DIR", "/home/me/.claude")
	t.Setenv("https_proxy", "http://proxy:3128")
	t.Setenv("SAVERD_TEST_KEPT", "yes")
	t.Setenv("TMPDIR", "/var/tmp")
	env := Env("/tmp/home", "http://127.0.0.1:1234")
	tests := []struct {
		kv   string
		want bool
	}{
		{"HOME=/tmp/home", true},
		{"TMPDIR=/tmp/home", true},
		{"TMPDIR=/var/tmp", false},
		{"ANTHROPIC_BASE_URL=http://127.0.0.1:1234", true},
		{"ANTHROPIC_API_KEY=test", true},
		{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", true},
		{"SAVERD_TEST_KEPT=yes", true},
		{"ANTHROPIC_API_KEY=sk-real", false},
		{"ANTHROPIC_MODEL=claude-other", false},
		{"CLAUDE_CONFIG_DIR=/home/me/.claude", false},
		{"https_proxy=http://proxy:3128", false},
	}
	for _, tt := range tests {
		if got := slices.Contains(env, tt.kv); got != tt.want {
			t.Errorf("%s in Env: %v, want %v", tt.kv, got, tt.want)
		}
	}
	homes := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "HOME=") {
			homes++
		}
	}
	if homes != 1 {
		t.Errorf("%d HOME entries, want 1", homes)
	}
}

func TestFindBinary(t *testing.T) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	native := filepath.Join("node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch, "claude")
	linked := filepath.Join("node_modules", ".bin", "claude")
	tests := []struct {
		name  string
		files map[string]os.FileMode
		want  string // "" = not found
	}{
		{"nothing installed", nil, ""},
		{"native binary", map[string]os.FileMode{native: 0o755, linked: 0o755}, native},
		{"only the npm link", map[string]os.FileMode{linked: 0o755}, linked},
		{"not executable", map[string]os.FileMode{native: 0o644}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, mode := range tt.files {
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := findBinary(dir)
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, tt.want)
			}
			if got != want || ok != (tt.want != "") {
				t.Errorf("findBinary = %q %v, want %q", got, ok, want)
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		name, out string
		wantErr   bool
	}{
		{"result", `{"type":"result","subtype":"success","result":"ok","session_id":"s1","usage":{"input_tokens":3,"output_tokens":1},"modelUsage":{"claude-opus-5-5":{"inputTokens":3,"costUSD":0.5}}}` + "\n", false},
		{"not JSON", "API Error: 500", true},
		{"no session", `{"type":"result","result":"ok"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseResult([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && (r.Result != "ok" || r.Usage.Input != 3 || r.ModelUsage["claude-opus-5-5"].CostUSD != 0.5) {
				t.Errorf("parsed %+v", r)
			}
		})
	}
}

// TestCIInstallsThisVersion: .ci/run installs the release Install looks for, into the same directory.
func TestCIInstallsThisVersion(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"claude_code_version=" + ClaudeCodeVersion + "\n",
		`claude_code_dir="$HOME/.cache/saverd-clients/claude-code-$claude_code_version"`} {
		if !strings.Contains(string(script), want) {
			t.Errorf(".ci/run lacks %q: it must install the Claude Code Install looks for", want)
		}
	}
}
