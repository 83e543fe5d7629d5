// Package installtest is what the tests of install and of the harness packages' install files share: a
// home of the test's own for every harness's user directory, and a file written or read in one call.
// Only tests import it.
package installtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Sandbox points every harness's user directory (and saverd's state) into a temp dir and returns it.
func Sandbox(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(dir, "codex"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	return dir
}

// Write writes text to path, its directories made.
func Write(t testing.TB, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// Read is the text of the file at path.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ForeignSettings is a settings file as Claude Code writes one, with the person's own hooks and status
// line: everything in it must survive an install and come back byte for byte after an uninstall.
const ForeignSettings = `{
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(npm test:*)"
    ]
  },
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo hello <&>",
            "timeout": 7
          }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/guard"
          }
        ]
      }
    ],
    "Notification": []
  },
  "statusLine": {
    "type": "command",
    "command": "~/bin/my-status",
    "padding": 0
  },
  "z": 1.5e3
}
`

// CodexConfig is a Codex config.toml with the person's own settings, comments and trust entries.
const CodexConfig = `# my Codex settings
model = "gpt-5.5"   # the default

[hooks.state."/elsewhere/hooks.json:stop:0:0"]
trusted_hash = "sha256:aaaa"

# projects I trust
[projects."/home/me/src"]
trust_level = "trusted"
`
