package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/timespan"
)

// Filter keeps the sessions (or calls) a command asks for.
type Filter struct {
	Span    timespan.Span // resolved; unbounded keeps every time
	Harness string        // a harness id; "" for every harness
	Repo    string        // a directory as RepoDir gives it; "" for every one
}

// RepoDir is dir as Filter.Repo takes it: absolute, its links resolved when they can be.
func RepoDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("--repo %s: %w", dir, err)
	}
	return resolved(abs), nil
}

// resolved is p with symlinks resolved when it can be.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Keep is the sessions active in the span, of the harness and in the repository.
func (f *Filter) Keep(recs []agentlog.Record) []agentlog.Record {
	if f.Span.Unbounded() && f.Harness == "" && f.Repo == "" {
		return recs // no filter: thousands of records are not copied one by one
	}
	out := recs[:0:0]
	for _, r := range recs {
		if !f.Span.Overlaps(r.Start, r.End) {
			continue
		}
		if f.Harness != "" && r.Harness != f.Harness {
			continue
		}
		if f.Repo != "" && !inRepo(r, f.Repo) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// inRepo: the session's repository, or else its working directory, is dir or below it.
func inRepo(r agentlog.Record, dir string) bool {
	where := r.Cwd
	if r.Repo != nil {
		where = *r.Repo
	}
	if where == "" {
		return false
	}
	where = resolved(where)
	return where == dir || strings.HasPrefix(where, dir+string(filepath.Separator))
}
