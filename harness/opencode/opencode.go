// Package opencode reads OpenCode's sessions (harness.Logs) from its SQLite database
// (~/.local/share/opencode/opencode.db, in WAL mode) and, where no database is, from the JSON files of its
// older storage/ layout. Nothing of the user's database is written or locked: with no -wal it is opened
// immutable (SQLite then takes no lock and makes no -shm), else its file and its -wal are copied into a
// private directory and the copy is read (opening the live files would write their -shm and take a
// reader's locks on them). Each assistant message is one API call; a subagent's
// session is read into its parent's, as Claude Code's subagents are. The session title's call is billed
// but never stored, which each record says.
package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
)

// Logs is OpenCode's harness.Logs.
type Logs struct{}

var _ harness.Logs = Logs{}

func (Logs) ID() harness.ID  { return harness.OpenCode }
func (Logs) Name() string    { return "OpenCode" }
func (Logs) DirFlag() string { return "opencode-dir" }
func (Logs) DirHelp() string {
	return "OpenCode's data directory, holding opencode.db (repeatable; default $XDG_DATA_HOME/opencode, else ~/.local/share/opencode)"
}

// DefaultDirs is OpenCode's data directory: $XDG_DATA_HOME/opencode, else ~/.local/share/opencode (on
// every platform: it follows the XDG layout on macOS and Windows too).
func (Logs) DefaultDirs() []string {
	if v := os.Getenv("XDG_DATA_HOME"); v != "" {
		return []string{filepath.Join(v, "opencode")}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".local", "share", "opencode")}
}

// Discover lists each database in dir (opencode.db, and opencode-<channel>.db of a non-release channel)
// and, in a directory with none, the older storage/ layout as one File.
func (Logs) Discover(dirs []string) ([]agentlog.File, []string) {
	var (
		files []agentlog.File
		warn  []string
	)
	for _, d := range dirs {
		dbs, err := filepath.Glob(filepath.Join(d, "opencode*.db"))
		if err != nil {
			warn = append(warn, d+": "+err.Error())
			continue
		}
		for _, db := range dbs {
			info, err := os.Lstat(db)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			size := info.Size()
			if wal, err := os.Lstat(db + "-wal"); err == nil {
				size += wal.Size()
			}
			files = append(files, agentlog.File{Path: db, Harness: string(harness.OpenCode), Size: size, Reader: dbReader{}})
		}
		if len(dbs) > 0 {
			continue // OpenCode moved its storage/ files into the database when it made it
		}
		storage := filepath.Join(d, "storage")
		if info, err := os.Stat(filepath.Join(storage, "message")); err == nil && info.IsDir() {
			files = append(files, agentlog.File{Path: storage, Harness: string(harness.OpenCode), Reader: storageReader{}})
		}
	}
	return files, warn
}

// Owns: an SQLite database (named opencode*.db) or an older storage/ directory.
func (Logs) Owns(path string) bool {
	if isStorage(path) {
		return true
	}
	if !strings.HasPrefix(filepath.Base(path), "opencode") {
		return false
	}
	head, err := safefile.Head(path, 16)
	return err == nil && bytes.Equal(head, []byte("SQLite format 3\x00"))
}

func isStorage(path string) bool {
	info, err := os.Stat(filepath.Join(path, "message"))
	return filepath.Base(path) == "storage" && err == nil && info.IsDir()
}

// unlogged is what every OpenCode record says its log leaves out.
const unlogged = "OpenCode's session title (one call per new session, to its small model) is billed but never stored in its database"

// ReadFile reads a database or storage/ directory named by a person, as a File Discover lists is read.
func (Logs) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	if isStorage(f.Path) {
		return storageReader{}.ReadFile(f, opt)
	}
	return dbReader{}.ReadFile(f, opt)
}
