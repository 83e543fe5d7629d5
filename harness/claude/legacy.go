package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/sourcegraph/conc/iter"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
)

// Claude Code before 2.1 wrote a subagent's transcript beside its session's, as
// <project>/agent-<agentId>.jsonl, each line naming the session that ran it (sessionId) and marked
// isSidechain; 2.1 moved them to <project>/<session>/subagents/. Such a file is no session of its own: its
// calls were billed to the session it names, and are read with that session's transcript.

// sessionLines is how many lines of a subagent's transcript are looked through for the session it names:
// its first line names it.
const sessionLines = 8

// sessionBytes bounds what is read of those lines: a first prompt is far shorter.
const sessionBytes = 4 << 20

// isBesideSubagent reports whether a transcript is a subagent's written beside its session's.
func isBesideSubagent(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "agent-") && filepath.Base(filepath.Dir(path)) != "subagents"
}

// sessionOfSubagent is the session a subagent's transcript names, from its first lines.
func sessionOfSubagent(path string) (string, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, sessionBytes))
	for range sessionLines {
		var l struct {
			SessionID string `json:"sessionId"`
		}
		if err := dec.Decode(&l); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return "", fmt.Errorf("%s: reading the session it belongs to: %w", path, err)
		}
		if l.SessionID != "" {
			return l.SessionID, nil
		}
	}
	return "", fmt.Errorf("%s: a subagent's transcript naming no session in its first %d lines, skipped", path, sessionLines)
}

// joinBesideSubagents takes the subagents' transcripts written beside their sessions' out of files and
// gives each to the reader of its session's transcript. A subagent whose session's transcript is not
// there is read as that session: the first of its transcripts with the others beside it.
func joinBesideSubagents(files []agentlog.File) ([]agentlog.File, []string) {
	var subs []int
	for i := range files {
		if isBesideSubagent(files[i].Path) {
			subs = append(subs, i)
		}
	}
	if len(subs) == 0 {
		return files, nil
	}
	type named struct {
		session string
		err     error
	}
	names := iter.Mapper[int, named]{MaxGoroutines: runtime.GOMAXPROCS(0)}.Map(subs, func(i *int) named {
		s, err := sessionOfSubagent(files[*i].Path)
		return named{s, err}
	})
	var warn []string
	bySession := make(map[string][]int) // <project>/<session>.jsonl: its subagents' files
	for k, i := range subs {
		if names[k].err != nil {
			warn = append(warn, names[k].err.Error())
			continue
		}
		p := filepath.Join(filepath.Dir(files[i].Path), names[k].session+".jsonl")
		bySession[p] = append(bySession[p], i)
	}
	besides := func(of []int) []string {
		paths := make([]string, len(of))
		for k, i := range of {
			paths[k] = files[i].Path
		}
		sort.Strings(paths)
		return paths
	}
	out := files[:0:0]
	for _, f := range files {
		if isBesideSubagent(f.Path) {
			continue
		}
		if of, ok := bySession[f.Path]; ok {
			t, _ := f.Reader.(transcript)
			t.beside = besides(of)
			f.Reader = t
			delete(bySession, f.Path)
		}
		out = append(out, f)
	}
	gone := make([]string, 0, len(bySession)) // sessions whose own transcript is not there
	for p := range bySession {
		gone = append(gone, p)
	}
	sort.Strings(gone)
	for _, p := range gone {
		of := bySession[p]
		sort.Slice(of, func(a, b int) bool { return files[of[a]].Path < files[of[b]].Path })
		main := files[of[0]]
		main.Reader = transcript{beside: besides(of[1:])}
		out = append(out, main)
	}
	return out, warn
}

// besideSubagents lists the subagents' transcripts written beside the session transcript at path.
func besideSubagents(path string) []string {
	all, err := filepath.Glob(filepath.Join(filepath.Dir(path), "agent-*.jsonl"))
	if err != nil {
		return nil
	}
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	var out []string
	for _, p := range all {
		if s, err := sessionOfSubagent(p); err == nil && s == id {
			out = append(out, p)
		}
	}
	return out
}
