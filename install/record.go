package install

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/safefile"
)

// record is what install found in a settings file and what it left there, kept in the state directory
// so that uninstall can give the file back byte for byte while nothing but saverd's entries changed
// since: an entry's removal alone cannot tell an empty "hooks": {} the person had from one install
// made. When the file changed in any other way, uninstall removes saverd's entries and keeps every other
// byte (patchText).
type record struct {
	Path    string `json:"path"`
	Existed bool   `json:"existed"`
	Before  string `json:"before"`
	After   string `json:"after"` // sha256 of the text install left
}

func digest(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// recordFile is where the record of the settings file at path is kept: one file per path.
func recordFile(path string) (string, error) {
	dir, err := paths.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "install", digest(path)[:16]+".json"), nil
}

// loadRecord reads the record of path; none, or one that does not read, is no record.
func loadRecord(path string) (record, bool) {
	f, err := recordFile(path)
	if err != nil {
		return record{}, false
	}
	b, err := safefile.Read(f, maxSettings*2)
	if err != nil {
		return record{}, false
	}
	var r record
	if json.Unmarshal(b, &r) != nil || r.Path != path {
		return record{}, false
	}
	return r, true
}

// remember updates path's record after install changed the file from before to after: a file with
// none of saverd's entries is the one to give back; a file install itself left (its digest matches)
// keeps the original it had; any other file has no original left to give back, and its record goes.
func remember(path string, existed bool, before, after string, clean bool) error {
	f, err := recordFile(path)
	if err != nil {
		return err
	}
	r := record{Path: path, Existed: existed, Before: before, After: digest(after)}
	if !clean {
		prev, ok := loadRecord(path)
		if !ok || prev.After != digest(before) {
			return forget(path)
		}
		r.Existed, r.Before = prev.Existed, prev.Before
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
		return fmt.Errorf("record of %s: %w", path, err)
	}
	return writeAtomic(f, string(b)+"\n", 0o600)
}

// forget drops path's record.
func forget(path string) error {
	f, err := recordFile(path)
	if err != nil {
		return err
	}
	if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("drop the record of %s: %w", path, err)
	}
	return nil
}

// original is the text install found in path, when the file still holds exactly what install left.
func original(path, text string) (before string, existed, ok bool) {
	r, found := loadRecord(path)
	if !found || r.After != digest(text) {
		return "", false, false
	}
	return r.Before, r.Existed, true
}
