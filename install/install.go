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
// config.toml). A file that does not parse is refused before anything is written.
func Install(o Options) ([]FileReport, error) {
	if !filepath.IsAbs(o.Bin) {
		return nil, fmt.Errorf("the hooks need the absolute path of saverd, not %q", o.Bin)
	}
	path, err := SettingsPath(o.Harness, o.Scope, o.Dir)
	if err != nil {
		return nil, err
	}
	text, _, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if o.Harness == ClaudeCode {
		e, err := MergeClaude(path, text, o.Bin)
		if err != nil {
			return nil, err
		}
		return apply(o.DryRun, FileReport{Path: path, Edit: e})
	}
	e, err := MergeCodexHooks(path, text, o.Bin)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	// Trust first: an entry for a hook not yet declared is harmless, a declared hook without one is
	// skipped by Codex without a word.
	return apply(o.DryRun, trust, FileReport{Path: path, Edit: e})
}

// Uninstall removes exactly saverd's entries from the harness's file at the scope (and their trust).
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
		return apply(o.DryRun, FileReport{Path: path, Edit: e})
	}
	e, err := RemoveCodexHooks(path, text)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	return apply(o.DryRun, FileReport{Path: path, Edit: e}, trust)
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

// apply writes every changed file in order, unless dry; it stops at the first failure.
func apply(dry bool, reports ...FileReport) ([]FileReport, error) {
	if dry {
		return reports, nil
	}
	for _, r := range reports {
		if len(r.Edit.Changes) == 0 {
			continue
		}
		// A settings file left holding nothing once saverd's entries are gone is removed, not left as {}
		// behind: install created it, or nothing else was in it. A symlink (a dotfiles repo's file) is not:
		// removing it would leave saverd's entries in the file it points to, so that file is written.
		if filepath.Ext(r.Path) == ".json" && strings.TrimSpace(r.Edit.Text) == "{}" && !isSymlink(r.Path) {
			if err := os.Remove(r.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return reports, fmt.Errorf("remove %s: %w", r.Path, err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(r.Path) == ".toml" {
			mode = 0o600
		}
		if err := writeAtomic(r.Path, r.Edit.Text, mode); err != nil {
			return reports, err
		}
	}
	return reports, nil
}
