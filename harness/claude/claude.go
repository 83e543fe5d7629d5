// Package claude is Claude Code as saverd meets it: its transcripts read into session records, audit
// histories and a turn's usage (one reader for the format, so `saverd sessions`, `audit` and the hook count
// a call alike: once per message.id and requestId, with the largest usage its lines show), and the live
// side the daemon asks of it (harness.Live). protocol.md, "Agent logs" and "Hooks", say what is read.
package claude

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
)

// Harness is Claude Code.
type Harness struct{}

var (
	_ harness.Logs = Harness{}
	_ harness.Live = Harness{}
)

func (Harness) ID() harness.ID  { return harness.ClaudeCode }
func (Harness) Name() string    { return "Claude Code" }
func (Harness) DirFlag() string { return "claude-dir" }
func (Harness) DirHelp() string {
	return "Claude Code's config directory (repeatable; default $CLAUDE_CONFIG_DIR, else ~/.claude and ~/.config/claude)"
}

// DefaultDirs is $CLAUDE_CONFIG_DIR (a comma-separated list is allowed), else ~/.claude and
// ~/.config/claude, whichever exist (both when neither does: where Claude Code would write).
func (Harness) DefaultDirs() []string {
	if v := os.Getenv("CLAUDE_CONFIG_DIR"); strings.TrimSpace(v) != "" {
		var out []string
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				out = append(out, d)
			}
		}
		return out
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	candidates := []string{filepath.Join(home, ".claude"), filepath.Join(home, ".config", "claude")}
	var out []string
	for _, d := range candidates {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return candidates
	}
	return out
}

// Discover lists the transcripts under each dir's projects/: <project>/<session>.jsonl, a subagent's
// transcript not among them (it is read with its session, in <session>/subagents/ or, written by a
// Claude Code before 2.1, beside it: legacy.go).
func (Harness) Discover(dirs []string) ([]agentlog.File, []string) {
	var (
		files []agentlog.File
		warn  []string
	)
	for _, d := range dirs {
		f, seen, w := agentlog.WalkLogs(filepath.Join(d, "projects"), string(harness.ClaudeCode), isTranscript, true)
		for i := range f {
			// A session has subagents to read only when the walk saw something named like it beside its
			// transcript (one stat per session saved). Fixed when Discover walked: a subagent directory made
			// between Discover and Scan is not read, as the session was not yet done.
			f[i].Reader = transcript{subagents: seen[strings.TrimSuffix(f[i].Path, ".jsonl")]}
		}
		f, besideWarn := joinSubagents(f)
		files, warn = append(files, f...), append(append(warn, w...), besideWarn...)
	}
	return files, warn
}

// isTranscript: a transcript, a session's or a subagent's (Discover gives the latter to their sessions).
func isTranscript(path string) bool {
	return strings.HasSuffix(path, ".jsonl") &&
		(filepath.Base(filepath.Dir(path)) != "subagents" || strings.HasPrefix(filepath.Base(path), "agent-"))
}

// transcript is the Reader of a transcript Discover listed: one session, with its subagents' transcripts
// when it may have some (subagents: in its subagents directory; beside: the ones written beside it).
type transcript struct {
	subagents bool
	beside    []string
}

func (t transcript) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	rec, err := t.ReadSession(f, opt)
	if err != nil {
		return nil, err
	}
	return []agentlog.Record{rec}, nil
}

// ReadSession is the session the transcript holds (agentlog.SessionReader): Scan reads it in place.
func (t transcript) ReadSession(f agentlog.File, opt agentlog.Options) (agentlog.Record, error) {
	return readSession(f.Path, t, opt)
}

// named is the reader of a transcript read by its path alone: every subagent's transcript it may have.
func named(path string) transcript { return transcript{subagents: true, beside: besideSubagents(path)} }

// ReadFile reads the session of a transcript a person named, its subagents' transcripts with it.
func (Harness) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	return named(f.Path).ReadFile(f, opt)
}

// History reads the transcript at path for `saverd audit`: the file is the session.
func (Harness) History(path, _ string, opt agentlog.Options) (agentlog.Transcript, error) {
	return ReadTranscript(path, opt)
}

// Owns reports whether a file a person named is Claude Code's: a transcript carries no mark of its own,
// so any regular file is (harness/all asks every other harness first).
func (Harness) Owns(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// SessionOf is the session a transcript holds: the file is <session>.jsonl.
func (Harness) SessionOf(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// Record reads the session of the transcript at path, and the transcripts of the forks saverd ran of it
// through claude --fork-session (written beside it, their copied calls counted once, in the session).
func (Harness) Record(path string, forks map[string]agentlog.ForkRecord, opt agentlog.Options) (agentlog.Record, []string, error) {
	id := Harness{}.SessionOf(path)
	mine := agentlog.ForksOf(forks, id)
	files := []agentlog.File{{Path: path, Harness: string(harness.ClaudeCode), Reader: named(path)}}
	for fid, f := range mine {
		if f.Harness != string(harness.ClaudeCode) && f.Harness != "" { // "": a line of a daemon older than the field
			continue
		}
		fork := filepath.Join(filepath.Dir(path), fid+".jsonl")
		if fi, err := os.Stat(fork); err == nil && fi.Mode().IsRegular() {
			files = append(files, agentlog.File{Path: fork, Harness: string(harness.ClaudeCode), Size: fi.Size(), Reader: transcript{subagents: true}})
		}
	}
	return agentlog.ReadSession(id, files, mine, opt)
}
