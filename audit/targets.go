package audit

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/logset"
)

// Target is one session to audit: a session of a harness's log.
type Target struct {
	path    string
	session string
	h       harness.Logs
	at      time.Time // when it was last written, for --last and --since
}

// read reads the target's history.
func (t Target) read() (agentlog.Transcript, error) {
	return t.h.History(t.path, t.session, agentlog.Options{})
}

// Query says which sessions to audit: one named (a log file, every session it holds, or a session id
// among the agents' logs), the newest, or every one written since a time. A fork saverd ran (its forks
// log names it: a judge's `claude -p --fork-session`) is no session of the person's: neither the newest
// nor among those written since; it is audited only when named.
type Query struct {
	Name  string    // a log file or a session id; "" for Last or Since
	Last  bool      // the most recently written session
	Since time.Time // every session written since; zero unless asked
}

// Targets resolves what to audit among the logs.
func Targets(ctx context.Context, logs logset.Set, q Query) ([]Target, error) {
	if q.Name != "" {
		if fi, err := os.Stat(q.Name); err == nil && (fi.Mode().IsRegular() || fi.IsDir()) {
			return fileTargets(q.Name, fi.IsDir())
		}
	}
	forks, fw := logs.Forks()
	all, warn := allTargets(ctx, logs, forks)
	warn = append(warn, fw...)
	if len(all) == 0 {
		return nil, fmt.Errorf("no session logs found under %s (see --claude-dir, --codex-dir, --gemini-dir, --opencode-dir, --qwen-dir)%s",
			strings.Join(searched(logs), ", "), joinWarnings(warn))
	}
	switch {
	case q.Name != "":
		for _, t := range all {
			if t.session == q.Name {
				return []Target{t}, nil
			}
		}
		return nil, fmt.Errorf("%q is neither a transcript file nor the id of a session under %s", q.Name, strings.Join(searched(logs), ", "))
	case q.Last:
		var newest *Target
		for i, t := range all {
			if _, fork := forks[t.session]; !fork && (newest == nil || t.at.After(newest.at)) {
				newest = &all[i]
			}
		}
		if newest == nil {
			return nil, fmt.Errorf("the only sessions under %s are forks saverd ran (name one to audit it)", strings.Join(searched(logs), ", "))
		}
		return []Target{*newest}, nil
	}
	from := q.Since
	var out []Target
	for _, t := range all {
		if _, fork := forks[t.session]; !fork && !t.at.Before(from) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no session written since %s", from.Format(time.RFC3339))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// fileTargets are the sessions of a log a person named, read by the harness that owns it (all.Owner): a
// log that is one session (a Claude Code transcript, a Codex rollout) is that session, unread until its
// audit; another holds one session or, an OpenCode database, many.
func fileTargets(path string, dir bool) ([]Target, error) {
	if h, ok := all.Owner(path); ok {
		if fs, one := h.(harness.FileSessions); one {
			return []Target{{path: path, session: fs.SessionOf(path), h: h}}, nil
		}
		recs, err := h.ReadFile(agentlog.File{Path: path, Harness: string(h.ID())}, agentlog.Options{})
		if err != nil {
			return nil, err
		}
		var out []Target
		for _, r := range recs {
			out = append(out, Target{path: path, session: r.SessionID, h: h, at: r.End})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: no %s session in it", path, h.Name())
		}
		return out, nil
	}
	if dir {
		return nil, fmt.Errorf("%s is a directory, not a session log", path)
	}
	return nil, fmt.Errorf("%s: not a session log of any harness saverd reads", path)
}

// allTargets is every session of the logs the flags name: a log that is one session (Claude Code's
// transcripts, Codex's rollouts) by its file (its name carries the session id, its time the last write),
// any other by the records it reads into.
func allTargets(ctx context.Context, logs logset.Set, forks map[string]agentlog.ForkRecord) ([]Target, []string) {
	var (
		out  []Target
		warn []string
	)
	for _, h := range logset.Harnesses {
		files, w := h.Discover(logs.DirsOf(h))
		warn = append(warn, w...)
		if len(files) == 0 {
			continue
		}
		if fs, one := h.(harness.FileSessions); one {
			for _, f := range files {
				t := Target{path: f.Path, session: fs.SessionOf(f.Path), h: h}
				if fi, err := os.Stat(f.Path); err == nil {
					t.at = fi.ModTime()
				}
				out = append(out, t)
			}
			continue
		}
		recs, w := agentlog.Scan(ctx, files, agentlog.ScanOptions{Forks: forks})
		warn = append(warn, w...)
		for _, r := range recs {
			if len(r.Files) > 0 {
				out = append(out, Target{path: r.Files[0], session: r.SessionID, h: h, at: r.End})
			}
		}
	}
	if err := ctx.Err(); err != nil {
		warn = append(warn, err.Error())
	}
	return out, warn
}

// searched names the directories a discovery looked in.
func searched(logs logset.Set) []string {
	var out []string
	for _, h := range logset.Harnesses {
		out = append(out, logs.DirsOf(h)...)
	}
	return out
}
