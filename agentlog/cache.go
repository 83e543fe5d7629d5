package agentlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/safefile"
)

// A CacheableReader is a Reader whose records a Cache may keep between runs. A log's records depend on
// more than its own bytes — the subagents' transcripts beside a Claude Code session, the usage file
// beside Qwen Code's chats — so the reader names what else it reads.
type CacheableReader interface {
	Reader
	// CacheSetting is the reader's own setting that changes what it reads of f ("" when none: Claude
	// Code's reader of a transcript with or without its subagents reads two different things); false
	// when f's records may not be kept (they depend on files the reader cannot name).
	CacheSetting(f File) (setting string, ok bool)
	// CacheDeps are the paths besides f and the records' Files whose state the records it read of f
	// depend on: a directory it lists, a file it reads beside the log, present or not.
	CacheDeps(f File, recs []Record) []string
}

// Cache keeps what each log's reader found, so that the next run of `saverd sessions` (or blocks, report,
// impact) does not read again a log unchanged since: a person's months of logs are mostly closed
// sessions, and reading them is most of what those commands cost. A log's records are kept with the
// identity of every file they were read from (each one's size, modification and change times, inode and
// device, or its absence) and reused only while each is the same; they are kept as the reader found
// them and priced again at each run, so a new price table or prices file applies to them. A file changed
// in the last racyWindow is not kept: its next change could leave its times as they are (file times
// are coarse), as git's index treats its "racily clean" entries. The cache is a file of the user's
// cache directory; one that cannot be read (damaged, of another saverd build) is an empty cache, and one
// that cannot be written is no error: the logs are read as without a cache.
type Cache struct {
	path   string
	build  string
	cutoff time.Time // a file changed at or after it is not kept

	mu      sync.Mutex
	old     map[string]cacheEntry // as read
	kept    map[string]cacheEntry // found unchanged, or read and stored, in this run
	touched map[string]bool       // looked up in this run
	reused  int                   // logs taken from the cache in this run
}

// racyWindow is how recent a change to a file may be for its records to be kept.
const racyWindow = 2 * time.Second

// cacheEntry is one log's records and what they were read from.
type cacheEntry struct {
	deps []cacheDep
	data string // encodeRecords
}

// cacheDep is one file (or directory) a log's records were read from, as it was.
type cacheDep struct {
	path string
	fp   fingerprint
}

// maxCacheFile bounds the cache file read: its records are a small part of the logs they stand for.
const maxCacheFile = 1 << 30

// OpenCache is the cache kept in file (its directory is made when it is written), for a scan starting
// at now. On a system where a file's change time cannot be read (Windows) it is nil: no cache.
func OpenCache(file string, now time.Time) *Cache {
	if !fingerprintsChangeTime {
		return nil
	}
	c := &Cache{path: file, build: buildID(), cutoff: now.Add(-racyWindow), kept: map[string]cacheEntry{}, touched: map[string]bool{}}
	data, err := safefile.Read(file, maxCacheFile)
	if err == nil {
		c.old, _ = decodeCache(data, c.build) // a damaged cache is an empty one
	}
	if c.old == nil {
		c.old = map[string]cacheEntry{}
	}
	return c
}

// cacheKey names f as read by its reader with setting, at opt's bounds.
func cacheKey(f *File, setting string, opt Options) string {
	l := opt.limits()
	return f.Harness + "\x00" + setting + "\x00" + strconv.Itoa(opt.MaxLine) + "\x00" +
		strconv.FormatInt(l.Size, 10) + "\x00" + strconv.FormatInt(l.Inflated, 10) + "\x00" + f.Path
}

// lookup is f's records as its reader found them, when every file they were read from is as it was.
func (c *Cache) lookup(key string) ([]Record, bool) {
	c.mu.Lock()
	e, ok := c.old[key]
	c.touched[key] = true
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	for _, d := range e.deps {
		if fingerprintOf(d.path) != d.fp {
			return nil, false
		}
	}
	recs, err := decodeRecords(e.data)
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	c.kept[key] = e
	c.reused++
	c.mu.Unlock()
	return recs, true
}

// Reused is how many logs this run took from the cache rather than read.
func (c *Cache) Reused() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reused
}

// store keeps recs, what f's reader found of it, unless a file they were read from changed too lately
// (racyWindow). deps are the reader's own (CacheDeps); f and the records' Files are added.
func (c *Cache) store(key string, f *File, deps []string, recs []Record) {
	paths := append([]string{f.Path}, deps...)
	for i := range recs {
		paths = append(paths, recs[i].Files...)
	}
	seen := make(map[string]bool, len(paths))
	var e cacheEntry
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		fp := fingerprintOf(p)
		if fp.changedSince(c.cutoff) {
			return
		}
		e.deps = append(e.deps, cacheDep{path: p, fp: fp})
	}
	e.data = encodeRecords(recs)
	c.mu.Lock()
	c.kept[key] = e
	c.mu.Unlock()
}

// Save writes the cache when this run changed it: the logs read or found unchanged in this run, and the
// ones it did not look at (another harness's, a directory not named this time) while their log is still
// there. A log looked at and changed is kept as read now, or left out.
func (c *Cache) Save() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]cacheEntry, len(c.kept)+len(c.old))
	changed := false
	for k, e := range c.old {
		if c.touched[k] {
			if _, ok := c.kept[k]; !ok {
				changed = true // changed since, and not kept again
			}
			continue
		}
		if len(e.deps) == 0 || !fingerprintOf(e.deps[0].path).exists {
			changed = true // its log is gone
			continue
		}
		out[k] = e
	}
	for k, e := range c.kept {
		if o, ok := c.old[k]; !ok || o.data != e.data || !slices.Equal(o.deps, e.deps) {
			changed = true
		}
		out[k] = e
	}
	if !changed {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("log cache: %w", err)
	}
	if err := atomicfile.Write(c.path, encodeCache(out, c.build), 0o600); err != nil {
		return fmt.Errorf("log cache: %w", err)
	}
	return nil
}

// buildID names the running saverd build: a cache another build wrote is not read, since a reader that
// changed may read the same log into other records. The executable's identity stands for its build
// (a build's version is not known when it runs from `go run` or a test).
func buildID() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown " + strconv.Itoa(cacheFormat)
	}
	fp := fingerprintOf(exe)
	return fmt.Sprintf("%d %s %d %d %d", cacheFormat, exe, fp.size, fp.mtime, fp.ino)
}

// errCache is a cache file or entry that does not decode.
var errCache = errors.New("log cache: damaged")
