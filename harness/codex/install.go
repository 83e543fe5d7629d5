package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/internal/jstext"
)

// Codex as `saverd install` and `doctor` meet it (install.Target): its hooks.json at the user and
// project scopes, the trust Codex requires for each hook in config.toml, and the $saver skill.

// Scopes are --scope's values for Codex, the default first.
func (Harness) Scopes() []string { return []string{"user", "project"} }

// SettingsPath is the file Codex reads its hooks from at a scope: ${CODEX_HOME:-~/.codex}/hooks.json or
// DIR/.codex/hooks.json.
func (Harness) SettingsPath(scope, dir string) (string, error) {
	switch scope {
	case "user":
		d, err := install.HomeDir("CODEX_HOME", ".codex")
		return filepath.Join(d, "hooks.json"), err
	case "project":
		return install.ProjectPath(dir, filepath.Join(".codex", "hooks.json"))
	}
	return "", fmt.Errorf("unknown scope %q for codex: want user or project", scope)
}

// InstallFiles merges saverd's hooks into hooks.json at o's scope and their trust into config.toml, and
// writes the $saver skill: trust first, since an entry for a hook not yet declared is harmless and a
// declared hook without one is skipped by Codex without a word.
func (h Harness) InstallFiles(o install.Options) ([]install.FileReport, error) {
	path, text, exists, err := install.ReadSettings(h, o)
	if err != nil {
		return nil, err
	}
	e, err := MergeHooks(path, text, o.Bin)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	hooks, err := install.SettingsReport(path, text, exists, e, RemoveHooks)
	if err != nil {
		return nil, err
	}
	skill, err := install.InstallOwnFiles(ownFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	return append([]install.FileReport{trust, hooks}, skill...), nil
}

// UninstallFiles removes saverd's hooks from hooks.json at o's scope and their trust from config.toml,
// and the skill unless the person changed it.
func (h Harness) UninstallFiles(o install.Options) ([]install.FileReport, error) {
	path, text, _, err := install.ReadSettings(h, o)
	if err != nil {
		return nil, err
	}
	e, err := RemoveHooks(path, text)
	if err != nil {
		return nil, err
	}
	trust, err := codexTrust(path, text, e)
	if err != nil {
		return nil, err
	}
	skill, err := install.UninstallOwnFiles(ownFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	return append([]install.FileReport{install.Restored(path, text, e), trust}, skill...), nil
}

// NextSteps is what a person types once saverd is installed for Codex.
func (Harness) NextSteps() []string {
	return []string{
		"Start Codex (codex) and work as always; the first hook starts saverd's daemon.",
		"Codex has no custom slash commands: type $saver for the pane, $saver check, $saver fix 1",
		"(or the line with a leading space: \" /saver check\"). Typed /saver, Codex answers Unrecognized command.",
	}
}

// DoctorJudge is the judge doctor checks for Codex, codex, when saverd is installed for it.
func (Harness) DoctorJudge() (role, program string) { return "codex judge", "codex" }

// events are the Codex events saverd hooks (the eight Codex 0.169.0 fires for a session). Codex
// clamps SessionEnd hooks to 3 s, and the declared timeout is part of the trust hash, so 3 is declared.
var events = []install.Handler{
	{Event: "SessionStart", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 130},
	{Event: "PreToolUse", Timeout: 10},
	{Event: "PostToolUse", Timeout: 10},
	{Event: "PreCompact", Timeout: 10},
	{Event: "PostCompact", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "SessionEnd", Timeout: 3},
}

// Handlers are the hooks saverd declares for Codex, running the binary at bin.
func Handlers(bin string) []install.Handler {
	return install.HandlersFor(events, install.ShellQuote(bin)+" hook --harness codex ")
}

// MergeHooks returns a Codex hooks.json with saverd's hooks merged in.
func MergeHooks(name, text, bin string) (install.Edit, error) {
	return install.EditFile(name, text, func(root *install.Object) ([]string, []string, error) {
		changes, err := install.MergeHooks(root, Handlers(bin))
		return changes, nil, err
	})
}

// RemoveHooks returns a Codex hooks.json without saverd's hooks.
func RemoveHooks(name, text string) (install.Edit, error) {
	return install.EditFile(name, text, func(root *install.Object) ([]string, []string, error) {
		changes, err := install.RemoveHooks(root)
		return changes, nil, err
	})
}

// Declared is one handler as a Codex hooks.json declares it, with where it sits and the trust Codex
// needs for it.
type Declared struct {
	Event   string
	Command string
	Ours    bool
	// Key names the handler in config.toml's [hooks.state."KEY"]: the hooks.json path, the event in
	// snake case, the group's index and the handler's index in it.
	Key string
	// Hash is the trusted_hash Codex expects; "" when the declaration has fields whose part in the hash
	// is not known here (Codex's hash was checked for async, command, timeout, type and matcher).
	Hash string
}

// Declarations lists every command handler of a Codex hooks.json at path, in file order.
func Declarations(path, text string) ([]Declared, error) {
	root, err := install.ParseObject(text)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v)", path, err)
	}
	hooks, err := install.HooksTable(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	var out []Declared
	for _, event := range hooks.Keys() {
		groups, _ := hooks.Get(event).([]any)
		for gi, g := range groups {
			group, _ := g.(*install.Object)
			if group == nil {
				continue
			}
			handlers, _ := group.Get("hooks").([]any)
			for hi, v := range handlers {
				cmd, ok := install.CommandOf(v)
				if !ok {
					continue
				}
				snake := snakeCase(event)
				out = append(out, Declared{Event: event, Command: cmd, Ours: install.Ours(cmd),
					Key:  path + ":" + snake + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
					Hash: trustHash(snake, group, v.(*install.Object))})
			}
		}
	}
	return out, nil
}

// trustHash is the hash Codex 0.169.0 trusts a handler by: sha256 over the compact, key-sorted JSON of
// {event_name (snake case), hooks: [{async, command, timeout, type}], matcher (when the group has one)}.
// Observed with the real client: the matcher and the timeout are part of it, the event name is snake case.
func trustHash(snakeEvent string, group, handler *install.Object) string {
	h := map[string]any{"async": false, "type": "command"}
	for _, k := range handler.Keys() {
		switch k {
		case "async", "command", "timeout", "type":
			h[k] = handler.Get(k)
		default:
			return ""
		}
	}
	if _, ok := h["timeout"]; !ok {
		return ""
	}
	decl := map[string]any{"event_name": snakeEvent, "hooks": []any{h}}
	for _, k := range group.Keys() {
		switch k {
		case "hooks":
		case "matcher":
			decl["matcher"] = group.Get(k)
		default:
			return ""
		}
	}
	sum := sha256.Sum256([]byte(compactSorted(decl)))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snakeCase turns an event name as hooks.json spells it (PreToolUse) into the one Codex's trust keys
// and hash use (pre_tool_use).
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ConfigPath is ${CODEX_HOME:-~/.codex}/config.toml, where Codex keeps hook trust for every scope.
func ConfigPath() (string, error) {
	d, err := install.HomeDir("CODEX_HOME", ".codex")
	return filepath.Join(d, "config.toml"), err
}

// codexTrust is config.toml's edit that follows a hooks.json edit: the trust of saverd's old handlers
// dropped, that of its new ones written, and a note for every foreign handler whose position (and so
// whose trust key) the edit moved.
func codexTrust(path, oldText string, e install.Edit) (install.FileReport, error) {
	cfg, err := ConfigPath()
	if err != nil {
		return install.FileReport{}, err
	}
	cfgText, _, err := install.ReadFile(cfg)
	if err != nil {
		return install.FileReport{}, err
	}
	oldDecl, err := Declarations(path, oldText)
	if err != nil {
		return install.FileReport{}, err
	}
	newDecl, err := Declarations(path, e.Text)
	if err != nil {
		return install.FileReport{}, err
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
		return install.FileReport{}, err
	}
	te.Notes = append(te.Notes, movedForeign(oldDecl, newDecl)...)
	if dir := projectOf(path); dir != "" && len(add) > 0 {
		if ok, err := ProjectTrusted(cfg, cfgText, dir); err == nil && !ok {
			te.Notes = append(te.Notes, untrustedProject(dir, cfg))
		}
	}
	return install.FileReport{Path: cfg, Edit: te}, nil
}

// projectOf is DIR for a project's DIR/.codex/hooks.json, "" for the user's hooks.json.
func projectOf(hooksPath string) string {
	user, err := Harness{}.SettingsPath("user", "")
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

// Skill is the skill that gives Codex users `$saver …`: Codex 0.169.0 has no custom slash commands
// (an unknown /saver is refused in the TUI before any hook), but a skill pops up when `$sav` is typed,
// and the UserPromptSubmit hook receives the typed `$saver check` verbatim and blocks it. The body reaches
// the model only when the hook did not block (it failed or is missing): one short line.
const Skill = `---
name: saver
description: saverd — the pane; $saver check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
---
saverd's hook did not answer this $saver line. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// PluginSkill is the Codex plugin's skill: Skill under the plugin's name, typed `$saver:saver …`.
const PluginSkill = `---
name: saver
description: saverd — the pane; $saver:saver check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
---
saverd's hook did not answer this $saver:saver line. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// SkillPolicy keeps the skill out of the skill listing Codex sends with every request (so the model
// never invokes it on its own); `$saver` still pops up and works when typed.
const SkillPolicy = "policy:\n  allow_implicit_invocation: false\n"

// ownFiles are the files install writes whole for Codex at a scope: the saver skill, in
// ${CODEX_HOME:-~/.codex}/skills for the user scope and DIR/.agents/skills (where Codex reads a
// repository's skills) for the project scope.
func ownFiles(scope, dir string) ([]install.OwnFile, error) {
	hooks, err := Harness{}.SettingsPath(scope, dir)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(filepath.Dir(hooks), "skills", "saver")
	if scope == "project" {
		root = filepath.Join(filepath.Dir(filepath.Dir(hooks)), ".agents", "skills", "saver")
	}
	return []install.OwnFile{
		{Path: filepath.Join(root, "SKILL.md"), Text: Skill, What: "the $saver skill"},
		{Path: filepath.Join(root, "agents", "openai.yaml"), Text: SkillPolicy, What: "the $saver skill's policy (not invoked by the model)", Dirs: 2},
	}, nil
}

// Findings reports Codex's hooks at the user and project scopes and saverd's plugin (PluginInstall),
// every handler's trust first; either route is an install.
func (Harness) Findings(dir string) ([]install.Finding, bool) {
	var out []install.Finding
	cfg, err := ConfigPath()
	if err != nil {
		return []install.Finding{{Level: install.Fix, Text: "codex: " + err.Error()}}, false
	}
	cfgText, _, err := install.ReadFile(cfg)
	var trust map[string]string
	if err == nil {
		trust, err = ReadTrust(cfg, cfgText)
	}
	if err != nil {
		out = append(out, install.Finding{Level: install.Fix, First: true, Text: "codex: " + err.Error() + ": Codex trusts no hook"})
	}
	var installed []string // the scopes holding saverd's handlers
	var read []string
	for _, scope := range []string{"user", "project"} {
		path, err := Harness{}.SettingsPath(scope, dir)
		if err != nil {
			out = append(out, install.Finding{Level: install.Fix, Text: "codex " + scope + ": " + err.Error()})
			continue
		}
		if slices.Contains(read, path) {
			continue // a project at the home directory: its project file is the user's
		}
		read = append(read, path)
		text, exists, err := install.ReadFile(path)
		if err != nil {
			out = append(out, install.Finding{Level: install.Fix, Text: "codex: " + err.Error()})
			continue
		}
		if !exists {
			continue
		}
		decls, err := Declarations(path, text)
		if err != nil {
			out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("codex %s: %v: Codex ignores it", scope, err)})
			continue
		}
		var present []string
		for _, d := range decls {
			if d.Ours {
				present = append(present, d.Event+"\x00"+d.Command)
			}
			if f, bad := untrusted(d, trust, cfg); bad {
				out = append(out, f)
			}
		}
		if len(present) > 0 {
			installed = append(installed, scope)
			out = append(out, install.Coverage("codex", scope, path, present, events))
			if dir := projectOf(path); dir != "" && trust != nil {
				if ok, _ := ProjectTrusted(cfg, cfgText, dir); !ok {
					out = append(out, install.Finding{Level: install.Fix, First: true, Text: "codex: UNTRUSTED PROJECT — " + untrustedProject(dir, cfg)})
				}
			}
		}
	}
	if len(installed) > 1 {
		out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("codex: hooks installed at %s: Codex runs both files' hooks, so each event reaches saverd %d times; uninstall all but one scope", strings.Join(installed, " and "), len(installed))})
	}
	plugin, pluginOn := EnabledPlugin(cfg, cfgText)
	if pluginOn {
		out = append(out, pluginFindings(plugin, trust, cfg, installed)...)
	} else if len(installed) == 0 {
		out = append(out, install.Finding{Level: install.Note, Text: "codex: no saverd hooks in " + strings.Join(read, " or ") + ", and no saver plugin enabled in " + cfg})
	}
	return out, len(installed) > 0 || pluginOn
}

// untrusted reports a handler Codex will skip because config.toml does not trust its declaration.
// A foreign handler is only a note (it is the person's own), and one whose hash saverd cannot compute
// is left unjudged.
func untrusted(d Declared, trust map[string]string, cfg string) (install.Finding, bool) {
	if d.Hash == "" || trust[d.Key] == d.Hash {
		return install.Finding{}, false
	}
	why := "has no trust entry"
	if _, ok := trust[d.Key]; ok {
		why = "has a trust entry for a different declaration (changed since it was trusted)"
	}
	if d.Ours {
		return install.Finding{Level: install.Fix, First: true, Text: fmt.Sprintf("codex: UNTRUSTED — Codex skips saverd's %s hook without a word: %s in %s: run `saverd install codex`", d.Event, why, cfg)}, true
	}
	return install.Finding{Level: install.Note, First: true, Text: fmt.Sprintf("codex: untrusted — Codex skips your %s hook %q: %s in %s", d.Event, d.Command, why, cfg)}, true
}

// compactSorted is the compact JSON of v with object keys sorted, the form Codex hashes a hook
// declaration in (encoding/json sorts map keys).
func compactSorted(v map[string]any) string {
	text, _ := jstext.Marshal(v)
	return string(text)
}

// PluginHooks is the hooks file of saverd's plugin for Codex (plugins/saver/hooks/codex.json): the events
// install declares, each running the plugin's launcher (hooks/run, under ${PLUGIN_ROOT}) with --harness
// codex.
func (Harness) PluginHooks() string {
	root := &install.Object{}
	if _, err := install.MergeHooks(root, install.HandlersFor(events, `sh "${PLUGIN_ROOT}/hooks/run" --harness codex `)); err != nil {
		return "" // a new object has no hooks of the wrong type
	}
	return install.Format(root)
}
