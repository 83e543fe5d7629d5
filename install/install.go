package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Target is a harness as install and doctor meet it: where its hooks are declared, what saverd writes
// there and beside them, and what doctor checks. Each harness whose hooks saverd answers provides one
// (harness.Live: harness/claude, harness/codex); this package keeps the editing they share.
type Target interface {
	// Scopes are the --scope values it takes, the default first.
	Scopes() []string
	// SettingsPath is the file it reads its hooks from at a scope, for the project directory dir ("" is
	// the working directory); an unknown scope is an error naming the scopes it takes.
	SettingsPath(scope, dir string) (string, error)
	// InstallFiles is what install does at o's scope, file by file, in the order to write them; nothing is
	// written yet. A file that does not parse is an error.
	InstallFiles(o Options) ([]FileReport, error)
	// UninstallFiles is what uninstall does at o's scope, as InstallFiles.
	UninstallFiles(o Options) ([]FileReport, error)
	// Findings is doctor's report on it for the project dir, and whether any scope holds saverd's hooks
	// (or stands in for them: Claude Code's plugin).
	Findings(dir string) ([]Finding, bool)
	// DoctorJudge is the judge doctor checks for it when saverd is installed for it (any route): its role
	// in the report and the program its built-in fork runs.
	DoctorJudge() (role, program string)
	// NextSteps is what a person types once saverd is installed for it.
	NextSteps() []string
	// PluginHooks is the hooks file saverd's plugin (plugins/saver) declares for it.
	PluginHooks() string
}

// Options say what to install (or uninstall) where.
type Options struct {
	Target Target
	Scope  string // one of Target's Scopes
	Dir    string // the project directory of the project and local scopes; "" is the working directory
	Bin    string // the absolute path of the saverd binary the hooks run
	DryRun bool   // compute and report, write nothing
}

// FileReport is what one command did (or, dry, would do) to one file.
type FileReport struct {
	Path string
	Edit Edit
	// Remove: the file goes rather than being written (uninstall), and then RemoveDirs levels of its
	// directories that are left empty (the skill's own directory).
	Remove     bool
	RemoveDirs int

	before *origin // install: the settings file as it was, for the record uninstall gives back
	forget bool    // uninstall: the record of this settings file is done with
}

// origin is a settings file as install found it.
type origin struct {
	existed bool
	text    string
	clean   bool // none of saverd's entries in it
}

// ProjectPath is rel under the project directory dir ("" is the working directory), made absolute.
func ProjectPath(dir, rel string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("project directory: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project directory %s: %w", dir, err)
	}
	return filepath.Join(abs, rel), nil
}

// HomeDir is the directory $env names, else dot under the home directory: a harness's own directory.
func HomeDir(env, dot string) (string, error) {
	if d := os.Getenv(env); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("neither %s nor a home directory: %w", env, err)
	}
	return filepath.Join(home, dot), nil
}

// ReadSettings is t's settings file at o's scope: its path, its text, and whether it exists.
func ReadSettings(t Target, o Options) (path, text string, exists bool, err error) {
	path, err = t.SettingsPath(o.Scope, o.Dir)
	if err != nil {
		return "", "", false, err
	}
	text, exists, err = ReadFile(path)
	return path, text, exists, err
}

// Install merges saverd's hooks into the harness's files at the scope and writes the file that makes the
// command known to its interactive UI (o.Target's InstallFiles). A file that does not parse is refused
// before anything is written.
func Install(o Options) ([]FileReport, error) {
	if !filepath.IsAbs(o.Bin) {
		return nil, fmt.Errorf("the hooks need the absolute path of saverd, not %q", o.Bin)
	}
	reports, err := o.Target.InstallFiles(o)
	if err != nil {
		return nil, err
	}
	return apply(o.DryRun, reports...)
}

// SettingsReport is install's report for a settings file, with what the file held before, so that
// uninstall can give it back byte for byte (record.go). clean says whether it held none of saverd's
// entries; remove is the harness's removal, which tells.
func SettingsReport(path, text string, exists bool, e Edit, remove func(name, text string) (Edit, error)) (FileReport, error) {
	r, err := remove(path, text)
	if err != nil {
		return FileReport{}, err
	}
	return FileReport{Path: path, Edit: e, before: &origin{existed: exists, text: text, clean: len(r.Changes) == 0}}, nil
}

// Uninstall removes exactly saverd's entries from the harness's files at the scope, and the command file
// or skill install wrote, unless the person changed it (o.Target's UninstallFiles). A settings file that
// still holds exactly what install left gets back the text install found, byte for byte.
func Uninstall(o Options) ([]FileReport, error) {
	reports, err := o.Target.UninstallFiles(o)
	if err != nil {
		return nil, err
	}
	return apply(o.DryRun, reports...)
}

// Restored is uninstall's report for a settings file: the text install found when the file is still
// exactly what install left, else the file without saverd's entries. A file left holding nothing is
// removed (install made it, or nothing else was in it), unless it is a symlink (a dotfiles repository's
// file): removing the link would leave saverd's entries in the file it points to, so that is written.
func Restored(path, text string, e Edit) FileReport {
	r := FileReport{Path: path, Edit: e, forget: true}
	if len(e.Changes) == 0 {
		return r
	}
	if before, existed, ok := original(path, text); ok {
		r.Edit.Text, r.Remove = before, !existed
		return r
	}
	r.Remove = strings.TrimSpace(strings.TrimPrefix(e.Text, "\uFEFF")) == "{}" && !isSymlink(path)
	return r
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// apply writes every changed file in order, unless dry; it stops at the first failure. A file whose
// write would be refused (a dangling symlink, writeTarget) fails the command before anything is written.
func apply(dry bool, reports ...FileReport) ([]FileReport, error) {
	if dry {
		return reports, nil
	}
	for _, r := range reports {
		if len(r.Edit.Changes) > 0 {
			if _, err := writeTarget(r.Path); err != nil {
				return reports, err
			}
		}
	}
	for _, r := range reports {
		if len(r.Edit.Changes) == 0 {
			continue
		}
		if err := r.write(); err != nil {
			return reports, err
		}
		if err := r.record(); err != nil {
			return reports, err
		}
	}
	return reports, nil
}

// write removes the file or writes its new text.
func (r FileReport) write() error {
	if r.Remove {
		target, err := writeTarget(r.Path)
		if err != nil {
			return err
		}
		if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", target, err)
		}
		removeEmptyDirs(filepath.Dir(target), r.RemoveDirs)
		return nil
	}
	mode := os.FileMode(0o644)
	if filepath.Ext(r.Path) == ".toml" {
		mode = 0o600
	}
	return writeAtomic(r.Path, r.Edit.Text, mode)
}

// record keeps what install found in a settings file, or drops it once uninstall is done.
func (r FileReport) record() error {
	switch {
	case r.before != nil:
		return remember(r.Path, r.before.existed, r.before.text, r.Edit.Text, r.before.clean)
	case r.forget:
		return forget(r.Path)
	}
	return nil
}

// removeEmptyDirs removes dir and then its parents, n levels in all, while each is empty: the
// directories install made for a file of its own.
func removeEmptyDirs(dir string, n int) {
	for ; n > 0; n-- {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
