package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/safefile"
)

// Bounds of a settings file read: far above any real one, and a read that hangs (a dead network
// mount) gives up rather than hold install or doctor.
const (
	maxSettings  = 16 << 20
	readDeadline = 5 * time.Second
)

// ReadFile returns a file's text, or "" and exists=false when there is none. A path that is not a
// regular file (a FIFO, whose open would wait for a writer for good; a device; a directory) is refused,
// naming it.
func ReadFile(path string) (text string, exists bool, err error) {
	b, err := safefile.ReadWithin(path, maxSettings, readDeadline)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if errors.Is(err, safefile.ErrNotRegular) {
		return "", false, fmt.Errorf("%w: saverd reads and writes only a regular file there", err)
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	return string(b), true, nil
}

// writeTarget is the file a write to path lands in. A settings file kept as a symlink (a dotfiles
// repository's) is written through, so the link keeps working: its target when that exists, and a
// dangling link's target too when the target's directory exists (the file the person meant, not yet
// made). A dangling link whose target's directory is missing is refused: making directories wherever a
// link points, or replacing the link with a plain file, would both go behind the person's back.
func writeTarget(path string) (string, error) {
	cur := path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			if cur != path && errors.Is(err, fs.ErrNotExist) {
				if st, derr := os.Stat(filepath.Dir(cur)); derr != nil || !st.IsDir() {
					return "", fmt.Errorf("%s is a symlink to %s, whose directory does not exist: not changed (create it, or replace the link)", path, cur)
				}
			}
			return cur, nil
		}
		if hops == 40 {
			return "", fmt.Errorf("%s: too many levels of symlinks: not changed", path)
		}
		target, err := os.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("read the link %s: %w", cur, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(cur), target)
		}
		cur = target
	}
}

// writeAtomic replaces path with text through a temporary file in the same directory and a rename, so a
// reader (Claude Code, Codex) sees the old file or the new one, never half of one. The file keeps its
// mode; a new one gets newMode, and its directory is created. A symlink is written through (writeTarget).
func writeAtomic(path, text string, newMode fs.FileMode) error {
	path, err := writeTarget(path)
	if err != nil {
		return err
	}
	mode := newMode
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return atomicfile.Write(path, []byte(text), mode)
}
