// Package atomicfile is the one way saverd writes a file whole — the registry and the journal of rule
// writes in its store, a rule in a person's CLAUDE.md, skill or settings.json, the harnesses' settings
// files install edits, the report page — so every one of them has the same durability: a reader sees
// either the old file or the new one, never part of one, and once a write returns a crash or a power
// cut keeps the new one.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TempMark separates a file's name from a temp file's random suffix: Write's temp files are
// .<name>.tmp-<random>, in the file's own directory.
const TempMark = ".tmp-"

// Write replaces the file at path with data, mode perm (exactly: the umask does not apply), through a
// temp file in the same directory: write, fsync, rename over path, fsync the directory. The temp file is
// hidden (.<name>.tmp-…) and removed when a step fails; the error names path and the step.
//
// A symlink at path is replaced by the file, not written through; a caller that keeps a person's link
// resolves it first (install does). Mode gives a caller that keeps an existing file's mode the perm to
// pass.
func Write(path string, data []byte, perm fs.FileMode) error {
	if err := WriteTemp(path, data, perm, "."+filepath.Base(path)+TempMark+"*"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteTemp is Write with the temp file named by pattern (as os.CreateTemp takes it, in path's
// directory) and the failing step's error as it came, unwrapped: for a writer that finds a crashed
// writer's temp files by their name and words its own errors (the registry).
func WriteTemp(path string, data []byte, perm fs.FileMode, pattern string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	// Each step's error is kept over the clean-up's, which only says the temp file is gone already.
	fail := func(err error) error {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// Mode is the mode a rewrite of path gives it: the file's own when it exists, so a CLAUDE.md or a
// settings file a person made 0600 stays 0600, else perm, a new file's.
func Mode(path string, perm fs.FileMode) fs.FileMode {
	if info, err := os.Stat(path); err == nil {
		return info.Mode().Perm()
	}
	return perm
}
