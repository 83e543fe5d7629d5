package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Harnesses saverd installs into.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
)

// Options say what to install (or uninstall) where.
type Options struct {
	Harness string // ClaudeCode or Codex
	Scope   string // user, project or local (Claude Code only)
	Dir     string // the project directory of the project and local scopes; "" is the working directory
	Bin     string // the absolute path of the saverd binary the hooks run
	DryRun  bool   // compute and report, write nothing
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

// SettingsPath is the file a harness reads its hooks from at a scope: Claude Code's
// ${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json, DIR/.claude/settings.json or
// DIR/.claude/settings.local.json; Codex's ${CODEX_HOME:-~/.codex}/hooks.json or DIR/.codex/hooks.json.
func SettingsPath(harness, scope, dir string) (string, error) {
	project := func(rel string) (string, error) {
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
	switch harness + "/" + scope {
	case ClaudeCode + "/user":
		d, err := homeDir("CLAUDE_CONFIG_DIR", ".claude")
		return filepath.Join(d, "settings.json"), err
	case ClaudeCode + "/project":
		return project(filepath.Join(".claude", "settings.json"))
	case ClaudeCode + "/local":
		return project(filepath.Join(".claude", "settings.local.json"))
	case Codex + "/user":
		d, err := homeDir("CODEX_HOME", ".codex")
		return filepath.Join(d, "hooks.json"), err
	case Codex + "/project":
		return project(filepath.Join(".codex", "hooks.json"))
	}
	switch harness {
	case ClaudeCode:
		return "", fmt.Errorf("unknown scope %q for claude-code: want user, project or local", scope)
	case Codex:
		return "", fmt.Errorf("unknown scope %q for codex: want user or project", scope)
	}
	return "", fmt.Errorf("unknown harness %q: want claude-code or codex", harness)
}

// CodexConfigPath is ${CODEX_HOME:-~/.codex}/config.toml, where Codex keeps hook trust for every scope.
func CodexConfigPath() (string, error) {
	d, err := homeDir("CODEX_HOME", ".codex")
	return filepath.Join(d, "config.toml"), err
}

func homeDir(env, dot string) (string, error) {
	if d := os.Getenv(env); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("neither %s nor a home directory: %w", env, err)
	}
	return filepath.Join(home, dot), nil
}

// Install merges saverd's hooks into the harness's file at the scope (and, for Codex, their trust into
// config.toml), and writes the file that makes the command known to the harness's interactive UI (Claude
// Code's /saver command file, Codex's $saver skill). A file that does not parse is refused before
// anything is written. When the saver plugin is enabled for Claude Code, its hooks stand and install
// adds none (it removes saverd's own from the file): only the status line and the command file.
func Install(o Options) ([]FileReport, error) {
	if !filepath.IsAbs(o.Bin) {
		return nil, fmt.Errorf("the hooks need the absolute path of saverd, not %q", o.Bin)
	}
	path, err := SettingsPath(o.Harness, o.Scope, o.Dir)
	if err != nil {
		return nil, err
	}
	text, exists, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if o.Harness == ClaudeCode {
		plugin, err := ClaudePlugin(o.Dir)
		if err != nil {
			return nil, err
		}
		e, err := mergeClaude(path, text, o.Bin, plugin == "")
		if err != nil {
			return nil, err
		}
		if plugin != "" {
			e.Notes = append(e.Notes, "the "+plugin+" plugin is enabled and brings saverd's hooks, so none are added here; the status line is, since a plugin cannot set one")
		}
		settings, err := settingsReport(path, text, exists, e, RemoveClaude)
		if err != nil {
			return nil, err
		}
		cmd, err := installOwnFiles(ClaudeOwnFiles(o.Scope, o.Dir))
		if err != nil {
			return nil, err
		}
		return apply(o.DryRun, append([]FileReport{settings}, cmd...)...)
	}
	e, err := MergeCodexHooks(path, text, o.Bin)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	hooks, err := settingsReport(path, text, exists, e, RemoveCodexHooks)
	if err != nil {
		return nil, err
	}
	skill, err := installOwnFiles(CodexOwnFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	// Trust first: an entry for a hook not yet declared is harmless, a declared hook without one is
	// skipped by Codex without a word.
	return apply(o.DryRun, append([]FileReport{trust, hooks}, skill...)...)
}

// settingsReport is install's report for a settings file, with what the file held before, so that
// uninstall can give it back byte for byte (record.go). clean says whether it held none of saverd's
// entries; remove is the harness's removal, which tells.
func settingsReport(path, text string, exists bool, e Edit, remove func(name, text string) (Edit, error)) (FileReport, error) {
	r, err := remove(path, text)
	if err != nil {
		return FileReport{}, err
	}
	return FileReport{Path: path, Edit: e, before: &origin{existed: exists, text: text, clean: len(r.Changes) == 0}}, nil
}

// Uninstall removes exactly saverd's entries from the harness's file at the scope (and their trust),
// and the command file or skill install wrote, unless the person changed it. A settings file that
// still holds exactly what install left gets back the text install found, byte for byte.
func Uninstall(o Options) ([]FileReport, error) {
	path, err := SettingsPath(o.Harness, o.Scope, o.Dir)
	if err != nil {
		return nil, err
	}
	text, _, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if o.Harness == ClaudeCode {
		e, err := RemoveClaude(path, text)
		if err != nil {
			return nil, err
		}
		cmd, err := uninstallOwnFiles(ClaudeOwnFiles(o.Scope, o.Dir))
		if err != nil {
			return nil, err
		}
		return apply(o.DryRun, append([]FileReport{restored(path, text, e)}, cmd...)...)
	}
	e, err := RemoveCodexHooks(path, text)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	skill, err := uninstallOwnFiles(CodexOwnFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	return apply(o.DryRun, append([]FileReport{restored(path, text, e), trust}, skill...)...)
}

// restored is uninstall's report for a settings file: the text install found when the file is still
// exactly what install left, else the file without saverd's entries. A file left holding nothing is
// removed (install made it, or nothing else was in it), unless it is a symlink (a dotfiles repository's
// file): removing the link would leave saverd's entries in the file it points to, so that is written.
func restored(path, text string, e Edit) FileReport {
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

// codexTrust is config.toml's edit that follows a hooks.json edit: the trust of saverd's old handlers
// dropped, that of its new ones written, and a note for every foreign handler whose position (and so
// whose trust key) the edit moved.
func codexTrust(path, oldText string, e Edit) (FileReport, error) {
	cfg, err := CodexConfigPath()
	if err != nil {
		return FileReport{}, err
	}
	cfgText, _, err := readFile(cfg)
	if err != nil {
		return FileReport{}, err
	}
	oldDecl, err := Declarations(path, oldText)
	if err != nil {
		return FileReport{}, err
	}
	newDecl, err := Declarations(path, e.Text)
	if err != nil {
		return FileReport{}, err
	}
	var drop []string
	for _, d := range oldDecl {
		if d.Ours {
			drop = append(drop, d.Key)
		}
	}
	var add []Trust
	for _, d := range newDecl {
		if d.Ours {
			add = append(add, Trust{Key: d.Key, Hash: d.Hash})
		}
	}
	te, err := SetTrust(cfg, cfgText, drop, add)
	if err != nil {
		return FileReport{}, err
	}
	te.Notes = append(te.Notes, movedForeign(oldDecl, newDecl)...)
	if dir := projectOf(path); dir != "" && len(add) > 0 {
		if ok, err := ProjectTrusted(cfg, cfgText, dir); err == nil && !ok {
			te.Notes = append(te.Notes, untrustedProject(dir, cfg))
		}
	}
	return FileReport{Path: cfg, Edit: te}, nil
}

// projectOf is DIR for a project's DIR/.codex/hooks.json, "" for the user's hooks.json.
func projectOf(hooksPath string) string {
	user, err := SettingsPath(Codex, "user", "")
	if err != nil || hooksPath == user || filepath.Base(filepath.Dir(hooksPath)) != ".codex" {
		return ""
	}
	return filepath.Dir(filepath.Dir(hooksPath))
}

// untrustedProject says why a project's hooks do not run yet, and what the person can do.
func untrustedProject(dir, cfg string) string {
	return fmt.Sprintf("Codex reads %s/.codex/hooks.json only in a trusted project, and %s does not trust %s: Codex asks when it first runs there (or add [projects.%s] trust_level = \"trusted\")", dir, cfg, dir, tomlString(dir))
}

// movedForeign names the foreign handlers whose trust key changed between two versions of hooks.json:
// Codex will skip them until the person trusts them again.
func movedForeign(before, after []Declared) []string {
	keyOf := map[string]string{}
	for _, d := range before {
		if !d.Ours {
			keyOf[d.Event+"\x00"+d.Command] = d.Key
		}
	}
	var notes []string
	for _, d := range after {
		if old, ok := keyOf[d.Event+"\x00"+d.Command]; ok && !d.Ours && old != d.Key {
			notes = append(notes, fmt.Sprintf("your %s hook %q moved from %s to %s: Codex asks to trust it again", d.Event, d.Command, old, d.Key))
		}
	}
	return notes
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
