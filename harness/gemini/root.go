package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
)

// reader is the agentlog.Reader of Gemini CLI's files. roots caches each project directory's working
// directory for one Discover's files: thousands of sessions share a few projects.
type reader struct{ roots *sync.Map }

// rootFunc is the working directory of a chats directory's sessions, given their projectHash.
type rootFunc func(chats, projectHash string) string

// ReadFile reads the session f names (with its other files) and any subagents' sessions beside it.
func (r reader) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	if _, err := os.Lstat(f.Path); err != nil {
		return nil, err
	}
	sessions := parse(siblings(f.Path), opt, false)
	for _, s := range sessions {
		s.adoptSubagents(opt, false)
	}
	return records(sessions, r.root, opt), nil
}

// root is where the sessions of a chats directory ran. The log names no directory, only projectHash,
// the sha256 of the project root's path: the root is the path tmp/<project>/.project_root holds or the
// one ~/.gemini/projects.json maps to <project>, the one whose hash is projectHash first.
func (r reader) root(chats, projectHash string) string {
	key := chats + "\x00" + projectHash
	if r.roots != nil {
		if v, ok := r.roots.Load(key); ok {
			return v.(string)
		}
	}
	got := findRoot(chats, projectHash)
	if r.roots != nil {
		r.roots.Store(key, got)
	}
	return got
}

func findRoot(chats, projectHash string) string {
	project := filepath.Dir(chats) // tmp/<project>
	var candidates []string
	if data, err := safefile.Read(filepath.Join(project, ".project_root"), 64<<10); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(data)))
	}
	name := filepath.Base(project)
	if data, err := safefile.Read(filepath.Join(filepath.Dir(filepath.Dir(project)), "projects.json"), 4<<20); err == nil {
		var reg struct {
			Projects map[string]string `json:"projects"`
		}
		if json.Unmarshal(data, &reg) == nil {
			for path, short := range reg.Projects {
				if short == name {
					candidates = append(candidates, path)
				}
			}
		}
	}
	for _, c := range candidates {
		if c != "" && (projectHash == "" || hashOf(c) == projectHash) {
			return c
		}
	}
	// Gemini CLI wrote .project_root for this very directory, and projects.json maps the path to it: a
	// hash that differs was taken of another spelling of the same path (a symbolic link resolved, a home
	// moved), and the directory still says where the sessions ran.
	for _, c := range candidates {
		if c != "" {
			return c
		}
	}
	return ""
}

func hashOf(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])
}
