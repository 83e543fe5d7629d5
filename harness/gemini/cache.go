package gemini

import (
	"path/filepath"

	"github.com/saverd/saverd/agentlog"
)

// CacheSetting: a session's files are read one way (agentlog.CacheableReader).
func (reader) CacheSetting(agentlog.File) (string, bool) { return "", true }

// CacheDeps: the chats directory (listed for the session's other files), each session's subagents
// directory chats/<session id>, and the two files findRoot reads for the working directory.
func (reader) CacheDeps(f agentlog.File, recs []agentlog.Record) []string {
	chats := filepath.Dir(f.Path)
	project := filepath.Dir(chats)
	deps := []string{chats, filepath.Join(project, ".project_root"), filepath.Join(filepath.Dir(filepath.Dir(project)), "projects.json")}
	for i := range recs {
		deps = append(deps, filepath.Join(chats, recs[i].SessionID))
	}
	return deps
}

var _ agentlog.CacheableReader = reader{}
