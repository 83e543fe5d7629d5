package impact

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// sess is a session with what the linking rules derive from it once.
type sess struct {
	*session
	real    string // realpath of Repo, "" when Repo is null
	busy    bool   // at least MIN_CALLS API calls
	writes  bool   // used a WRITE_TOOLS tool
	trailer bool   // won a trailer commit in some repo (set by linking)
}

// repoState is one repository R of L-repo and what its scan found.
type repoState struct {
	index    int
	path     string // realpath; the identity sessions are compared with
	label    string // repo_label = basename(R)
	sessions []member
	log      *repoLog
}

// member is a session that may link to a repo, and how.
type member struct {
	s       *sess
	outside bool // L-outside: trailer commits only, link_p = OUTSIDE_P
}

// realpath resolves symlinks so that two spellings of one directory compare
// equal. A path that cannot be resolved (gone, unreadable) keeps its
// absolute form: it still compares, it just matches nothing real.
func realpath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p), err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return abs, err
	}
	return real, nil
}

func newSess(s *session, resolve func(string) string) *sess {
	x := &sess{session: s, busy: s.Calls >= MinCalls, writes: usedWriteTool(s.Tools)}
	if s.Repo != "" {
		x.real = resolve(s.Repo)
	}
	return x
}

// usedWriteTool reports whether tools holds a WRITE_TOOLS name (any case).
func usedWriteTool(tools map[string]int) bool {
	for name, n := range tools {
		if n <= 0 {
			continue
		}
		for _, w := range WriteTools {
			if strings.EqualFold(name, w) {
				return true
			}
		}
	}
	return false
}

// resolveRepos is the first half of L-repo: impact.repos when given, else
// the distinct repos of the sessions. Paths that cannot be resolved are
// warnings; a label shared by two repos is a warning because by_repo groups
// by label and merges them.
func resolveRepos(explicit []string, sessions []*sess) ([]*repoState, []string) {
	var (
		warn  []string
		paths []string
		seen  = make(map[string]bool)
	)
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if len(explicit) > 0 {
		for _, p := range explicit {
			real, err := realpath(p)
			if err != nil {
				warn = append(warn, fmt.Sprintf("repo %s: %v (skipped)", p, err))
				continue
			}
			add(real)
		}
	} else {
		var fromSessions []string
		for _, s := range sessions {
			if s.real != "" {
				fromSessions = append(fromSessions, s.real)
			}
		}
		sort.Strings(fromSessions) // a stable order whatever the file order
		for _, p := range fromSessions {
			add(p)
		}
	}
	repos := make([]*repoState, len(paths))
	byLabel := make(map[string]string)
	for i, p := range paths {
		r := &repoState{index: i, path: p, label: filepath.Base(p)}
		if other, dup := byLabel[r.label]; dup {
			warn = append(warn, fmt.Sprintf("repos %s and %s share the label %q; by_repo merges them", other, p, r.label))
		}
		byLabel[r.label] = p
		repos[i] = r
	}
	return repos, warn
}

// assignMembers is the second half of L-repo plus L-outside: the sessions
// that may link to each repo. Outside sessions are considered only when the
// repos were given explicitly (impact.repos set).
func assignMembers(repos []*repoState, sessions []*sess, explicit bool) {
	for _, r := range repos {
		for _, s := range sessions {
			switch {
			case belongs(s, r):
				r.sessions = append(r.sessions, member{s: s})
			case explicit && outsideOf(s, r):
				r.sessions = append(r.sessions, member{s: s, outside: true})
			}
		}
	}
}

// belongs is L-repo: realpath(session.repo) == R, or the repo is null and
// the project is basename(R).
func belongs(s *sess, r *repoState) bool {
	if s.real != "" {
		return s.real == r.path
	}
	return s.Project != "" && s.Project == r.label
}

// outsideOf is L-outside: a null repo, or a repo that is a strict parent
// directory of R.
func outsideOf(s *sess, r *repoState) bool {
	if s.real == "" {
		return true
	}
	rel, err := filepath.Rel(s.real, r.path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
