package codex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/saverd/saverd/agentlog"
)

func TestCodexZstd(t *testing.T) {
	name := "rollout-2026-12-01T19-44-33-01a23323-2f6c-7410-9a90-799c96f92d5c.jsonl"
	plain, err := os.ReadFile(filepath.Join("testdata/sessions/2026/12/01", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	arch := filepath.Join(dir, "archived_sessions")
	if err := os.MkdirAll(arch, 0o700); err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	if err := os.WriteFile(filepath.Join(arch, name+".zst"), enc.EncodeAll(plain, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	files, _ := Harness{}.Discover([]string{dir})
	if len(files) != 1 {
		t.Fatalf("files = %+v, want the .jsonl.zst", files)
	}
	got, err := ReadRollout(files[0].Path, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ReadRollout(filepath.Join("testdata/sessions/2026/12/01", name), agentlog.Options{})
	if got.Calls != want.Calls || got.Tokens != want.Tokens || got.SessionID != want.SessionID {
		t.Errorf("zst record %+v, want %+v", got, want)
	}
}
