// Package qwen reads Qwen Code's session logs (~/.qwen/projects/<cwd>/chats/<session>.jsonl) into
// session records and audit histories (harness.Logs). One file is one session (a resume appends to it);
// each assistant record with usageMetadata is one API call. usage_record.jsonl, whose lines are each
// run's running totals of its session, is never summed: its last line per session checks the chat's sum,
// and stands in for a session whose chat was not recorded.
package qwen

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
)

// Logs is Qwen Code's harness.Logs.
type Logs struct{}

var _ harness.Logs = Logs{}

func (Logs) ID() harness.ID  { return harness.Qwen }
func (Logs) Name() string    { return "Qwen Code" }
func (Logs) DirFlag() string { return "qwen-dir" }
func (Logs) DirHelp() string {
	return "Qwen Code's directory, holding projects/ (repeatable; default $QWEN_RUNTIME_DIR and $QWEN_HOME, else ~/.qwen)"
}

// DefaultDirs: Qwen Code writes its session data to $QWEN_RUNTIME_DIR when set, its configuration (and,
// without that variable, its session data) to $QWEN_HOME, else ~/.qwen.
func (Logs) DefaultDirs() []string {
	var out []string
	if v := os.Getenv("QWEN_RUNTIME_DIR"); v != "" {
		out = append(out, v)
	}
	if v := os.Getenv("QWEN_HOME"); v != "" {
		return append(out, v)
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, ".qwen"))
	}
	return out
}

// Discover lists each chat log under dir/projects/*/chats/, and dir/usage_record.jsonl for the sessions
// it names that have no chat log.
func (Logs) Discover(dirs []string) ([]agentlog.File, []string) {
	r := reader{usage: &sync.Map{}}
	var (
		files []agentlog.File
		warn  []string
		seen  = map[string]bool{}
	)
	for _, d := range dirs {
		if seen[filepath.Clean(d)] {
			continue // $QWEN_RUNTIME_DIR and $QWEN_HOME may name one directory
		}
		seen[filepath.Clean(d)] = true
		chats, err := filepath.Glob(filepath.Join(d, "projects", "*", "chats", "*.jsonl"))
		if err != nil {
			warn = append(warn, d+": "+err.Error())
			continue
		}
		for _, c := range chats {
			if info, err := os.Lstat(c); err == nil && info.Mode().IsRegular() {
				files = append(files, agentlog.File{Path: c, Harness: string(harness.Qwen), Size: info.Size(), Reader: r})
			}
		}
		usage := filepath.Join(d, usageRecord)
		if info, err := os.Lstat(usage); err == nil && info.Mode().IsRegular() {
			files = append(files, agentlog.File{Path: usage, Harness: string(harness.Qwen), Size: info.Size(), Reader: r})
		}
	}
	return files, warn
}

// usageRecord is the file of each run's running totals, in Qwen Code's directory.
const usageRecord = "usage_record.jsonl"

// Owns: a JSON-lines file whose first line is a Qwen Code chat record (uuid, sessionId and provenance).
func (Logs) Owns(path string) bool {
	head, err := safefile.Head(path, 4096)
	if err != nil {
		return false
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.Contains(first, []byte(`"uuid"`)) && bytes.Contains(first, []byte(`"sessionId"`)) && bytes.Contains(first, []byte(`"provenance"`))
}

// ReadFile reads a chat log (or usage_record.jsonl) named by a person, as a File Discover lists is read.
func (Logs) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	return reader{}.ReadFile(f, opt)
}
