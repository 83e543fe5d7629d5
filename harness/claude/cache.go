package claude

import (
	"path/filepath"
	"strings"

	"github.com/saverd/saverd/agentlog"
)

// CacheSetting: a transcript read with its subagents' is another reading of it than one read without
// (agentlog.CacheableReader), and than one read with other subagents' transcripts beside it (one more
// written beside it is a new reading).
func (t transcript) CacheSetting(agentlog.File) (string, bool) {
	setting := ""
	if t.subagents {
		setting = "subagents"
	}
	if len(t.beside) > 0 {
		setting += "\x00" + strings.Join(t.beside, "\x00")
	}
	return setting, true
}

// CacheDeps: the subagents directory the reader lists (a subagent's transcript added to it changes it);
// the transcripts read are the record's Files.
func (t transcript) CacheDeps(f agentlog.File, _ []agentlog.Record) []string {
	if !t.subagents {
		return nil
	}
	return []string{filepath.Join(filepath.Dir(f.Path), strings.TrimSuffix(filepath.Base(f.Path), ".jsonl"), "subagents")}
}

var _ agentlog.CacheableReader = transcript{}
