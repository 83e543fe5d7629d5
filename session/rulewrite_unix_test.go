//go:build unix

package session

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// TestLandArtifactRefusesWhatIsNoFile: a FIFO, a directory or a file past writeFileMax where a rule would
// land is refused at once, naming it, and left as it is: the write never waits on a FIFO's writer.
func TestLandArtifactRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "CLAUDE.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", writeFileMax+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(dir, "SKILL.md")
	if err := os.Mkdir(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, mode, says string
	}{
		{fifo, rules.ModeAppend, "not a regular file"},
		{big, rules.ModeAppend, "is larger than 1 MiB: not changed; add the rule by hand"},
		{skill, rules.ModeWrite, "not a regular file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := landArtifact(rules.Artifact{PatternID: "p:x", Kind: state.ArtifactClaudeMD, Path: c.path, Mode: c.mode, Content: "\n## ContextSaver\n- x\n"})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("landArtifact(%s) = %v, want it refused: %s", c.path, err, c.says)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("landArtifact(%s) is still waiting", c.path)
		}
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", info, err)
	}
	if info, err := os.Stat(big); err != nil || info.Size() != writeFileMax+1 {
		t.Fatalf("the large file was changed: %v %v", info, err)
	}
}
