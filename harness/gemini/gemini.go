// Package gemini reads Gemini CLI's session logs (~/.gemini/tmp/<project>/chats/session-*.jsonl) into
// session records and audit histories (harness.Logs). What the format is and how it is counted is in
// protocol.md, "Agent logs"; the rules in brief: the same message id is written several times and the
// last record wins; `$set` lines (metadata and whole-history snapshots) are never counted; a session may
// span several files, which share the last 8 characters of their name; the model router's and the
// session summary's calls are never logged, which each record says.
package gemini

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
)

// Logs is Gemini CLI's harness.Logs.
type Logs struct{}

var _ harness.Logs = Logs{}

func (Logs) ID() harness.ID  { return harness.Gemini }
func (Logs) Name() string    { return "Gemini CLI" }
func (Logs) DirFlag() string { return "gemini-dir" }
func (Logs) DirHelp() string {
	return "Gemini CLI's directory, holding tmp/ (repeatable; default $GEMINI_CLI_HOME/.gemini, else ~/.gemini)"
}

// DefaultDirs is $GEMINI_CLI_HOME/.gemini (Gemini CLI takes that variable as its home), else ~/.gemini.
func (Logs) DefaultDirs() []string {
	if v := os.Getenv("GEMINI_CLI_HOME"); v != "" {
		return []string{filepath.Join(v, ".gemini")}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".gemini")}
}

// Discover lists one File per session under each dir's tmp/*/chats/: the files of one session (a resume
// in a later minute starts a second file with the same last 8 characters) are one File, the oldest named,
// read together.
func (Logs) Discover(dirs []string) ([]agentlog.File, []string) {
	r := reader{roots: &sync.Map{}}
	var (
		files []agentlog.File
		warn  []string
	)
	for _, d := range dirs {
		chats, err := filepath.Glob(filepath.Join(d, "tmp", "*", "chats"))
		if err != nil {
			warn = append(warn, d+": "+err.Error())
			continue
		}
		for _, c := range chats {
			f, w := discoverChats(c, r)
			files, warn = append(files, f...), append(warn, w...)
		}
	}
	return files, warn
}

// discoverChats groups one chats directory's session files by the session they belong to.
func discoverChats(dir string, r reader) ([]agentlog.File, []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []string{dir + ": " + err.Error() + ", skipped"}
	}
	var files []agentlog.File
	at := map[string]int{} // the session's 8 characters → its File
	for _, e := range entries {
		name := e.Name()
		key, ok := sessionKey(name)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // gone since the listing
		}
		if i, seen := at[key]; seen {
			files[i].Size += info.Size() // names sort by time: the first of a session is its File
			continue
		}
		at[key] = len(files)
		files = append(files, agentlog.File{Path: filepath.Join(dir, name), Harness: string(harness.Gemini), Size: info.Size(), Reader: r})
	}
	return files, nil
}

// sessionKey is the part of a session file's name that its other files share: the 8 characters of the
// session id after session-<YYYY-MM-DDTHH-MM>-. Older sessions are one .json object.
func sessionKey(name string) (string, bool) {
	if !strings.HasPrefix(name, "session-") {
		return "", false
	}
	stem, ok := strings.CutSuffix(name, ".jsonl")
	if !ok {
		if stem, ok = strings.CutSuffix(name, ".json"); !ok {
			return "", false
		}
	}
	i := strings.LastIndexByte(stem, '-')
	if i < 0 || len(stem)-i-1 != 8 {
		return "", false
	}
	return stem[i+1:], true
}

// siblings is every file of the session path belongs to, oldest first: the same directory, the same 8
// characters.
func siblings(path string) []string {
	dir := filepath.Dir(path)
	key, ok := sessionKey(filepath.Base(path))
	if !ok {
		return []string{path}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{path}
	}
	var out []string
	for _, e := range entries {
		if k, ok := sessionKey(e.Name()); ok && k == key && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return []string{path}
	}
	sort.Strings(out)
	return out
}

// Owns: a file whose first line is a Gemini CLI session header (sessionId and projectHash), or an older
// whole-session .json object.
func (Logs) Owns(path string) bool {
	head, err := safefile.Head(path, 4096)
	if err != nil {
		return false
	}
	head = bytes.TrimSpace(head)
	return bytes.HasPrefix(head, []byte("{")) && bytes.Contains(head, []byte(`"projectHash"`)) && bytes.Contains(head, []byte(`"sessionId"`))
}

// ReadFile reads the session of a file named by a person (Owns), as a File Discover lists is read.
func (Logs) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	return reader{}.ReadFile(f, opt)
}
