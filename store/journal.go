package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/safefile"
)

// Journal keeps, per project, the rules saverd wrote into it — each file's bytes before and after — so
// that the last write can be taken back byte for byte (`/saver undo`), in this session or a later one.
// One file per project, <dir>/<first 16 hex digits of sha256(project)>.json, holding
// {"project": "<dir>", "writes": [oldest … newest]}, mode 0600 in a 0700 directory (it holds copies of
// the project's files). Writes are durable (atomicfile.Write) and every read-change-write holds the journal's
// one lock file (journal.lock), as the registry's do, so two daemons never lose each other's entries.
type Journal struct {
	dir string
}

// Write is one rule written into a file.
type Write struct {
	Path  string `json:"path"`  // the file written, every link resolved
	Shown string `json:"shown"` // the path the reply named
	// Before is the file's bytes before the write; nil when there was no file.
	Before *string `json:"before"`
	After  string  `json:"after"` // the bytes written
	// Created is the directories the write created for the file, deepest first: undoing the write of
	// a new skill removes them again when nothing else has been put in them.
	Created   []string `json:"created,omitempty"`
	PatternID string   `json:"patternId"`
	Kind      string   `json:"kind"`
	At        int64    `json:"at"` // ms since the epoch
}

// Handled is a rule a session wrote, skipped or found written already: that session does not offer it
// again, even once undo has taken the write back, and a daemon that meets the session after a restart
// reads them here (its state, which says so, went with the daemon before).
type Handled struct {
	Session   string `json:"session"`
	PatternID string `json:"patternId"`
	Kind      string `json:"kind"`
}

// journalFile is one project's journal on disk.
type journalFile struct {
	Project string    `json:"project"`
	Writes  []Write   `json:"writes"`
	Handled []Handled `json:"handled,omitempty"`
}

// HandledDepth is how many handled rules a project's journal keeps, the oldest dropped first: many more
// than one session offers.
const HandledDepth = 200

// Handle notes h in project's journal (once).
func (j *Journal) Handle(project string, h Handled) error {
	return j.change(project, func(f *journalFile) (bool, error) {
		if slices.Contains(f.Handled, h) {
			return false, nil
		}
		f.Handled = append(f.Handled, h)
		if over := len(f.Handled) - HandledDepth; over > 0 {
			f.Handled = f.Handled[over:]
		}
		return true, nil
	})
}

// HandledBy is the rules session handled in project, oldest first.
func (j *Journal) HandledBy(project, session string) ([]Handled, error) {
	var out []Handled
	err := j.change(project, func(f *journalFile) (bool, error) {
		for _, h := range f.Handled {
			if h.Session == session {
				out = append(out, h)
			}
		}
		return false, nil
	})
	return out, err
}

// JournalDepth is how many writes a project's journal keeps: older ones can no longer be undone.
const JournalDepth = 10

// JournalFileMax bounds a journal file read back: JournalDepth writes of files a rule may be written
// into (the daemon writes none past 1 MiB) fit in it many times over.
const JournalFileMax = 64 << 20

const journalLock = "journal.lock"

// OpenJournal is the journal kept in dir, which it creates (mode 0700) when missing.
func OpenJournal(dir string) (*Journal, error) {
	if dir == "" {
		return nil, errors.New("open journal: empty directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open journal %s: %w", dir, err)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("open journal %s: not a directory", dir)
	}
	return &Journal{dir: dir}, nil
}

// Dir is the directory the journal is kept in.
func (j *Journal) Dir() string { return j.dir }

func (j *Journal) path(project string) string { return filepath.Join(j.dir, base(project)+".json") }

// Record adds w as project's newest write, dropping the oldest past JournalDepth.
func (j *Journal) Record(project string, w Write) error {
	return j.change(project, func(f *journalFile) (bool, error) {
		f.Writes = append(f.Writes, w)
		if over := len(f.Writes) - JournalDepth; over > 0 {
			f.Writes = f.Writes[over:]
		}
		return true, nil
	})
}

// Undo hands project's newest write to take and, when take says it is done with it (taken back, or
// left alone and named), removes it from the journal; ok is false when the journal holds none. take runs
// under the journal's lock, so two daemons never take back one write twice.
func (j *Journal) Undo(project string, take func(Write) (done bool, err error)) (ok bool, err error) {
	err = j.change(project, func(f *journalFile) (bool, error) {
		if len(f.Writes) == 0 {
			return false, nil
		}
		ok = true
		done, err := take(f.Writes[len(f.Writes)-1])
		if !done {
			return false, err
		}
		f.Writes = f.Writes[:len(f.Writes)-1]
		return true, err
	})
	return ok, err
}

// change reads project's journal under the lock, lets edit change it, and writes it back when edit says
// so. A journal that cannot be read as one is an error, never a fresh start: its writes stay undoable
// once it is mended or moved aside by hand.
func (j *Journal) change(project string, edit func(*journalFile) (bool, error)) (err error) {
	l, err := lock(filepath.Join(j.dir, journalLock), true)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, l.release()) }()
	path := j.path(project)
	f := journalFile{Project: project, Writes: []Write{}}
	data, rerr := safefile.Read(path, JournalFileMax)
	switch {
	case errors.Is(rerr, fs.ErrNotExist):
	case rerr != nil:
		return fmt.Errorf("read journal %s: %w", path, rerr)
	default:
		if err := json.Unmarshal(data, &f); err != nil {
			return fmt.Errorf("read journal %s: %w", path, err)
		}
		if f.Project != project {
			return fmt.Errorf("read journal %s: it is the journal of %q, not of %q", path, f.Project, project)
		}
	}
	write, editErr := edit(&f)
	if !write {
		return editErr
	}
	out, err := json.Marshal(f)
	if err != nil {
		return errors.Join(editErr, fmt.Errorf("encode journal %s: %w", path, err))
	}
	return errors.Join(editErr, atomicfile.Write(path, append(out, '\n'), 0o600))
}
