package qwen

import (
	"path/filepath"

	"github.com/saverd/saverd/agentlog"
)

// CacheSetting: a chat log may be kept (agentlog.CacheableReader); usage_record.jsonl's records may not,
// being the sessions that no chat log under its directory holds.
func (reader) CacheSetting(f agentlog.File) (string, bool) {
	return "", filepath.Base(f.Path) != usageRecord
}

// CacheDeps: usage_record.jsonl, whose running total a chat log's record is checked against.
func (reader) CacheDeps(f agentlog.File, _ []agentlog.Record) []string {
	return []string{filepath.Join(qwenDirOf(f.Path), usageRecord)}
}

var _ agentlog.CacheableReader = reader{}
