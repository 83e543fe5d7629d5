package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/saverd/saverd/internal/atomicfile"
)

// readFile returns a file's text, or "" and exists=false when there is none.
func readFile(path string) (text string, exists bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	return string(b), true, nil
}

// writeAtomic replaces path with text through a temporary file in the same directory and a rename, so a
// reader (Claude Code, Codex) sees the old file or the new one, never half of one. The file keeps its
// mode; a new one gets newMode, and its directory is created.
func writeAtomic(path, text string, newMode fs.FileMode) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		// A settings file kept as a symlink (dotfiles) is written through, not replaced by a file.
		path = real
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
