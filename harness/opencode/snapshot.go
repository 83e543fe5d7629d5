package opencode

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // pure Go: saverd builds without cgo for every platform it ships to

	"github.com/saverd/saverd/internal/safefile"
)

// maxDB bounds the database and its -wal, each: past it the file is not copied, and a warning says so.
const maxDB = 8 << 30

// snapshot is a database open read-only: the user's own file opened immutable (live), or a private
// copy of it and its -wal (dir).
type snapshot struct {
	db     *sql.DB
	dir    string
	live   string
	before os.FileInfo
}

// open opens the database at path for reading without writing or locking anything of it. With no -wal
// (or an empty one: OpenCode folds it in when it closes) every row is in the database file, which is opened
// as immutable: no lock, no -shm, nothing written; read reports if it changed meanwhile, and the rows are
// read again from a copy. Otherwise the newest rows may all be in the -wal, which only a writable -shm beside
// it lets SQLite read, so the two are copied into a private temporary directory and the copy is opened.
func open(path string) (*snapshot, error) {
	if walEmpty(path) {
		before, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !before.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w", path, safefile.ErrNotRegular)
		}
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
		if err == nil {
			err = db.Ping()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &snapshot{db: db, live: path, before: before}, nil
	}
	return openCopy(path)
}

// walEmpty: the database has no -wal, or an empty one.
func walEmpty(path string) bool {
	info, err := os.Stat(path + "-wal")
	return errors.Is(err, os.ErrNotExist) || err == nil && info.Size() == 0
}

// changed reports whether a database read in place was written while it was read (its size or time
// moved, or a -wal with rows appeared): what was read may mix two states.
func (s *snapshot) changed() bool {
	if s.live == "" {
		return false
	}
	after, err := os.Stat(s.live)
	return err != nil || !after.ModTime().Equal(s.before.ModTime()) || after.Size() != s.before.Size() || !walEmpty(s.live)
}

// openCopy copies the database at path and its -wal into a private temporary directory and opens the
// copy. Copying the two is not one atomic step: OpenCode may write, or fold its -wal into the database
// (a checkpoint), between them, so the database is stat'ed before and after and the copy made again
// while it changed. A -wal that grew meanwhile is harmless: SQLite reads its frames up to the last whole
// commit.
func openCopy(path string) (*snapshot, error) {
	dir, err := os.MkdirTemp("", "saverd-opencode-*")
	if err != nil {
		return nil, fmt.Errorf("%s: a private copy: %w", path, err)
	}
	s := &snapshot{dir: dir}
	copyPath := filepath.Join(dir, "opencode.db")
	for try := 0; ; try++ {
		err = s.copy(path, copyPath)
		if err == nil || !errors.Is(err, errChanged) || try == 2 {
			break
		}
	}
	if err != nil {
		s.close()
		return nil, err
	}
	// The copy is ours: opened read-only, SQLite makes its -shm beside it and reads the -wal's commits.
	s.db, err = sql.Open("sqlite", "file:"+copyPath+"?mode=ro")
	if err == nil {
		err = s.db.Ping()
	}
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// errChanged: the database changed while it was copied.
var errChanged = errors.New("changed while it was copied")

func (s *snapshot) copy(path, to string) error {
	before, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := copyFile(path, to); err != nil {
		return err
	}
	if err := copyFile(path+"-wal", to+"-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	after, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		return fmt.Errorf("%s: %w", path, errChanged)
	}
	return nil
}

// copyFile copies a regular file of at most maxDB bytes (safefile: a FIFO or a device is refused).
func copyFile(from, to string) error {
	src, err := safefile.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(dst, io.LimitReader(src, maxDB+1))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if n > maxDB {
		return fmt.Errorf("%s: %w (over %d bytes)", from, safefile.ErrTooLarge, int64(maxDB))
	}
	return nil
}

// close closes the copy and removes it.
func (s *snapshot) close() {
	if s.db != nil {
		s.db.Close()
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
