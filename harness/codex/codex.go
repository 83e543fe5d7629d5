// Package codex is Codex CLI as saverd meets it: its rollouts read into session records, audit histories
// and a turn's usage (one reader for the format, so `saverd sessions`, `audit` and the hook count a call
// alike: one token_usage_record per model response, its input converted to input not read from cache),
// and the live side the daemon asks of it (harness.Live). protocol.md, "Agent logs" and "Hooks", say
// what is read.
package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/safefile"
)

// Harness is Codex CLI.
type Harness struct{}

var (
	_ harness.Logs = Harness{}
	_ harness.Live = Harness{}
)

func (Harness) ID() harness.ID  { return harness.Codex }
func (Harness) Name() string    { return "Codex" }
func (Harness) DirFlag() string { return "codex-dir" }
func (Harness) DirHelp() string {
	return "Codex's home (repeatable; default $CODEX_HOME, else ~/.codex)"
}

// DefaultDirs is ${CODEX_HOME:-~/.codex}.
func (Harness) DefaultDirs() []string {
	if v := os.Getenv("CODEX_HOME"); v != "" {
		return []string{v}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".codex")}
}

// Discover lists the rollouts under each dir's sessions/ and archived_sessions/.
func (Harness) Discover(dirs []string) ([]agentlog.File, []string) {
	var (
		files []agentlog.File
		warn  []string
	)
	for _, d := range dirs {
		for _, sub := range []string{"sessions", "archived_sessions"} {
			f, _, w := agentlog.WalkLogs(filepath.Join(d, sub), string(harness.Codex), isRollout, false)
			for i := range f {
				f[i].Reader = rollout{}
			}
			files, warn = append(files, f...), append(warn, w...)
		}
	}
	return files, warn
}

func isRollout(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, "rollout-") && (strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".jsonl.zst"))
}

// rollout is the Reader of a rollout: one session (a resumed session appends to the same file).
type rollout struct{}

func (r rollout) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	rec, err := r.ReadSession(f, opt)
	if err != nil {
		return nil, err
	}
	return []agentlog.Record{rec}, nil
}

// ReadSession is the session the rollout holds (agentlog.SessionReader): Scan reads it in place.
func (rollout) ReadSession(f agentlog.File, opt agentlog.Options) (agentlog.Record, error) {
	rec, err := ReadRollout(f.Path, opt)
	if err == nil && rec.Start.IsZero() {
		return agentlog.Record{}, agentlog.NoDatedLine(f.Path)
	}
	return rec, err
}

// ReadFile reads the session of a rollout a person named.
func (Harness) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	return rollout{}.ReadFile(f, opt)
}

// History reads the rollout at path for `saverd audit`: the file is the session.
func (Harness) History(path, _ string, opt agentlog.Options) (agentlog.Transcript, error) {
	return ReadTranscript(path, opt)
}

// Owns reports whether a file a person named is a rollout: by its name, or by the session_meta line it
// opens with, whatever its name.
func (Harness) Owns(path string) bool { return isRollout(path) || startsRollout(path) }

// startsRollout: the file opens with a rollout's session_meta line.
func startsRollout(path string) bool {
	head, err := safefile.Head(path, 4096)
	return err == nil && bytes.Contains(head, []byte(`"session_meta"`))
}

// SessionOf is the session a rollout holds: the uuid its name ends with, else the name without its
// extension.
func (Harness) SessionOf(path string) string {
	if id, ok := RolloutSessionID(path); ok {
		return id
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// rolloutID is the session uuid at the end of a rollout file's name.
var rolloutID = regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$`)

// RolloutSessionID is the session uuid a rollout file's name ends with.
func RolloutSessionID(name string) (string, bool) {
	if m := rolloutID.FindStringSubmatch(filepath.Base(name)); m != nil {
		return m[1], true
	}
	return "", false
}

// Record reads the session of the rollout at path; the forks saverd ran of it (codex exec --ephemeral)
// leave no log, and are counted from the tokens their forks-log lines record.
func (Harness) Record(path string, forks map[string]agentlog.ForkRecord, opt agentlog.Options) (agentlog.Record, []string, error) {
	id := Harness{}.SessionOf(path)
	files := []agentlog.File{{Path: path, Harness: string(harness.Codex), Reader: rollout{}}}
	return agentlog.ReadSession(id, files, agentlog.ForksOf(forks, id), opt)
}
