package opencode

import "github.com/saverd/saverd/agentlog"

// CacheSetting: a database is read one way (agentlog.CacheableReader). The storage/ directory's reader
// is not one: its records depend on thousands of files in directories below it.
func (dbReader) CacheSetting(agentlog.File) (string, bool) { return "", true }

// CacheDeps: the database's write-ahead log, whose rows are the newest (read from a copy when it has any).
func (dbReader) CacheDeps(f agentlog.File, _ []agentlog.Record) []string {
	return []string{f.Path + "-wal"}
}

var _ agentlog.CacheableReader = dbReader{}
