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

// A subagent's transcript is no session of its own: its calls were billed to the session that ran it, and
// are read with that session's transcript. Claude Code 2.1 writes it in <project>/<session>/subagents/;
// before 2.1 Claude Code wrote it beside its session's, as <project>/agent-<agentId>.jsonl, each line
// naming the session that ran it (sessionId) and marked isSidechain.

// sessionLines is how many lines of a subagent's transcript are looked through for the session it names:
// its first line names it.
const sessionLines = 8

// sessionBytes bounds what is read of those lines: a first prompt is far shorter.
const sessionBytes = 4 << 20

// subagentFile reports whether a transcript is a subagent's, and the session transcript it belongs with
// when its place says so (<project>/<session>/subagents/agent-*.jsonl); a subagent's written beside its
// session's is known only by what it names (sessionOfSubagent).
func subagentFile(path string) (sub bool, session string) {
	if !strings.HasPrefix(filepath.Base(path), "agent-") {
		return false, ""
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "subagents" {
		return true, ""
	}
	dir = filepath.Dir(dir)
	return true, filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".jsonl")
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

// joinSubagents takes the subagents' transcripts out of files: one in its session's subagents directory
// is read by its session's reader (it lists that directory), one written beside its session's is given
// to that reader. Subagents whose session's transcript is not there (deleted, or never copied) are read as
// that session, billed as they were: the first of their transcripts with the others beside it.
func joinSubagents(files []agentlog.File) ([]agentlog.File, []string) {
	bySession := make(map[string][]int) // <project>/<session>.jsonl: its subagents' files
	inDir := make(map[int]bool)
	var beside []int
	for i := range files {
		switch sub, session := subagentFile(files[i].Path); {
		case session != "":
			bySession[session] = append(bySession[session], i)
			inDir[i] = true
		case sub:
			beside = append(beside, i)
		}
	}
	if len(bySession) == 0 && len(beside) == 0 {
		return files, nil
	}
	type named struct {
		session string
		err     error
	}
	names := iter.Mapper[int, named]{MaxGoroutines: runtime.GOMAXPROCS(0)}.Map(beside, func(i *int) named {
		s, err := sessionOfSubagent(files[*i].Path)
		return named{s, err}
	})
	var warn []string
	for k, i := range beside {
		if names[k].err != nil {
			warn = append(warn, names[k].err.Error())
			continue
		}
		p := filepath.Join(filepath.Dir(files[i].Path), names[k].session+".jsonl")
		bySession[p] = append(bySession[p], i)
	}
	paths := func(of []int, besideOnly bool) []string {
		var out []string
		for _, i := range of {
			if !besideOnly || !inDir[i] {
				out = append(out, files[i].Path)
			}
		}
		sort.Strings(out)
		return out
	}
	out := files[:0:0]
	for _, f := range files {
		if sub, _ := subagentFile(f.Path); sub {
			continue
		}
		if of, ok := bySession[f.Path]; ok {
			t, _ := f.Reader.(transcript)
			t.beside = paths(of, true)
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
		main.Reader = transcript{beside: paths(of[1:], false)}
		out = append(out, main)
	}
	return out, warn
}

// besideSubagents lists the subagents' transcripts written beside the session transcript at path.
func besideSubagents(path string) []string {
	if sub, _ := subagentFile(path); sub {
		return nil // a subagent's own transcript, named: read alone
	}
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
