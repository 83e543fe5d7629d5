package store

import (
	"github.com/saverd/saverd/internal/jsondepth"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/safefile"

	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Store is a directory of registry files, one per key. It is safe for concurrent use by many
// goroutines and many processes: every operation takes the store's lock file.
type Store struct {
	dir string
	log zerolog.Logger
	now func() time.Time // names moved-aside files; a field so tests can pin it
}

// envelope is a key's file on disk.
type envelope struct {
	Key   *string         `json:"key"`
	Value json.RawMessage `json:"value"`
}

// Open is a store kept in dir, which it creates (mode 0700) when missing.
func Open(dir string, log zerolog.Logger) (*Store, error) {
	if dir == "" {
		return nil, errors.New("open store: empty directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open store %s: not a directory", dir)
	}
	return &Store{dir: dir, log: log, now: time.Now}, nil
}

// DefaultDir is $XDG_STATE_HOME/saverd, else ~/.local/state/saverd. A relative XDG_STATE_HOME is
// ignored, as the XDG spec asks.
func DefaultDir() (string, error) {
	d, err := paths.StateDir()
	if err != nil {
		return "", fmt.Errorf("store dir: %w", err)
	}
	return d, nil
}

// Dir is the directory the store keeps its files in.
func (s *Store) Dir() string { return s.dir }

// base is the file name stem a key lives under.
func base(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])[:16]
}

// Path is the file key lives in.
func (s *Store) Path(key string) string { return filepath.Join(s.dir, base(key)+".json") }

// lockName is the store's one lock file. One lock for every key: writes are rare, and a lock file per
// key left one empty file behind per project ever opened.
const lockName = "registry.lock"

// MaxFileSize bounds one key's file. A registry holds at most MaxPatterns entries of bounded text, far
// below it; a larger file is not a registry saverd wrote, and is set aside like a corrupt one rather
// than read whole (a 100 MB file stalled every session's start for seconds).
const MaxFileSize = 4 << 20

func (s *Store) lockPath(string) string { return filepath.Join(s.dir, lockName) }

// Get is key's value as decoded JSON ([]any, map[string]any, float64, string, bool), or nil when the
// key is absent. A corrupt file, or one holding another key, is moved aside and logged, and Get
// reports (nil, nil): the session starts empty rather than failing.
func (s *Store) Get(key string) (value any, err error) {
	v, bad, err := s.readShared(key)
	if err != nil || bad == nil {
		return v, err
	}
	// Moving a file aside is a write: take the lock exclusively, then look again, since another holder
	// may have moved or rewritten it in between.
	l, err := lock(s.lockPath(key), true)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, l.release()) }()
	return s.readOrSetAside(key)
}

// readShared is read under the shared lock.
func (s *Store) readShared(key string) (value any, bad error, err error) {
	l, err := lock(s.lockPath(key), false)
	if err != nil {
		return nil, nil, err
	}
	defer func() { err = errors.Join(err, l.release()) }()
	return s.read(key)
}

// Update reads key's value, passes it to merge (nil when absent or corrupt) and writes what merge
// returns, all under the key's exclusive lock. When merge fails nothing is written and its error is
// returned wrapped. A nil result is stored as JSON null, which Get reads back as nil. The lock is
// released even if merge panics.
func (s *Store) Update(key string, merge func(old any) (any, error)) (err error) {
	l, err := lock(s.lockPath(key), true)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, l.release()) }()
	return s.update(key, merge)
}

func (s *Store) update(key string, merge func(old any) (any, error)) error {
	// Under the exclusive lock no writer is mid-way, so any temp file of this key is a crashed one's.
	s.removeStrayTemps(key)
	old, err := s.readOrSetAside(key)
	if err != nil {
		return err
	}
	next, err := merge(old)
	if err != nil {
		return fmt.Errorf("merge store %s: %w", key, err)
	}
	if aside, ok := next.(SetAside); ok {
		if err := s.keepAside(s.Path(key), aside.Why); err != nil {
			return err
		}
		next = aside.Value
	}
	value, err := json.Marshal(next)
	if err != nil {
		return fmt.Errorf("encode store %s: %w", key, err)
	}
	data, err := json.Marshal(envelope{Key: &key, Value: value})
	if err != nil {
		return fmt.Errorf("encode store %s: %w", key, err)
	}
	return writeAtomic(s.Path(key), append(data, '\n'))
}

// readOrSetAside is read, moving a corrupt file aside; the caller holds the exclusive lock.
func (s *Store) readOrSetAside(key string) (any, error) {
	v, bad, err := s.read(key)
	if err != nil || bad == nil {
		return v, err
	}
	return nil, s.setAside(s.Path(key), bad)
}

// read decodes key's file. bad is non-nil when the file exists but cannot be trusted; err is an I/O
// failure (the value is then unknown, and nothing must be written over it).
func (s *Store) read(key string) (value any, bad error, err error) {
	path := s.Path(key)
	data, err := safefile.Read(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case errors.Is(err, safefile.ErrTooLarge), errors.Is(err, safefile.ErrNotRegular) && !isDir(path):
		// Set aside, not read: a FIFO would block the open, a huge file every session's start. (A
		// directory cannot be moved aside as a file would; it stays an I/O error.)
		return nil, err, nil
	case err != nil:
		return nil, nil, fmt.Errorf("read store %s: %w", path, err)
	}
	v, bad := decode(key, data)
	return v, bad, nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// decode checks a file's envelope and returns its value.
func decode(key string, data []byte) (any, error) {
	if at, deep := jsondepth.Check(data, jsondepth.Max); deep {
		return nil, fmt.Errorf("nesting deeper than %d levels (at byte %d)", jsondepth.Max, at)
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, err
	}
	if env.Key == nil || env.Value == nil {
		return nil, errors.New(`missing "key" or "value"`)
	}
	if *env.Key != key {
		return nil, fmt.Errorf("holds key %q, not %q", *env.Key, key)
	}
	var v any
	if err := json.Unmarshal(env.Value, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// SetAside, returned by Update's merge in place of its value, has the file as it was kept beside it
// (<file>.corrupt-<ns>, as a corrupt file is moved aside) before Value is written over it: what the merge
// could not carry over (entries that fail validation) is not lost with the write. It marshals as Value,
// so a registry that is not this store reads it as the value.
type SetAside struct {
	Value any
	Why   error
}

func (a SetAside) MarshalJSON() ([]byte, error) { return json.Marshal(a.Value) }

// keepAside keeps path as it is now beside it, under the exclusive lock: a hard link (the write then
// replaces path with a new file, and the link keeps the old one), else a copy.
func (s *Store) keepAside(path string, why error) error {
	aside := fmt.Sprintf("%s.corrupt-%d", path, s.now().UnixNano())
	err := os.Link(path, aside)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		data, rerr := safefile.Read(path, MaxFileSize)
		if rerr != nil {
			return fmt.Errorf("set aside store %s: %w", path, errors.Join(err, rerr))
		}
		if err := os.WriteFile(aside, data, 0o600); err != nil {
			return fmt.Errorf("set aside store %s: %w", path, err)
		}
	}
	s.log.Warn().Str("path", path).Str("kept_at", aside).AnErr("why", why).Msg("store file kept aside before a write that would lose part of it")
	return nil
}

// setAside renames a corrupt file out of the way, so the next write starts fresh and a person can
// still look at what was there.
func (s *Store) setAside(path string, why error) error {
	aside := fmt.Sprintf("%s.corrupt-%d", path, s.now().UnixNano())
	err := os.Rename(path, aside)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("set aside store %s: %w", path, err)
	}
	s.log.Warn().Str("path", path).Str("moved_to", aside).AnErr("error", why).Msg("corrupt store file moved aside; starting empty")
	return nil
}

// removeStrayTemps deletes temp files a crashed writer of key left behind. Best effort: a stray file
// is harmless, since nothing ever reads one.
func (s *Store) removeStrayTemps(key string) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	prefix := base(key) + ".json" + tempMark
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		m := filepath.Join(s.dir, e.Name())
		if err := os.Remove(m); err == nil {
			s.log.Debug().Str("path", m).Msg("removed a stray store temp file")
		}
	}
}
