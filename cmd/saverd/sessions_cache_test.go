package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSessionsCache: `saverd sessions` keeps what it read of the logs in the cache directory, a second
// run writes the same output from it, --no-cache reads the logs and leaves the cache alone, and a damaged
// cache is read past (the logs read again) and written anew.
func TestSessionsCache(t *testing.T) {
	cacheHome := t.TempDir()
	cache := filepath.Join(cacheHome, "saverd", "logs.cache")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binPath, append(append([]string{"sessions", "--format", "json"}, args...), fixtureDirs...)...)
		home := t.TempDir()
		cmd.Env = append(os.Environ(), "TZ=UTC", "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home,
			"XDG_CACHE_HOME="+cacheHome, "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "GORACE=atexit_sleep_ms=0")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("saverd sessions %q: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
	first := run()
	kept, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("no cache after a run: %v", err)
	}
	if got := run(); got != first {
		t.Errorf("from the cache:\n%s\nread:\n%s", got, first)
	}
	if err := os.Remove(cache); err != nil {
		t.Fatal(err)
	}
	if got := run("--no-cache"); got != first {
		t.Errorf("with --no-cache:\n%s\nwant:\n%s", got, first)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("--no-cache wrote the cache: %v", err)
	}
	damaged := bytes.Clone(kept)
	damaged[len(damaged)/2] ^= 0x55
	if err := os.WriteFile(cache, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != first {
		t.Errorf("through a damaged cache:\n%s\nwant:\n%s", got, first)
	}
	if again, err := os.ReadFile(cache); err != nil || !bytes.Equal(again, kept) {
		t.Errorf("the damaged cache was not written anew as the first run wrote it (%v)", err)
	}
}
