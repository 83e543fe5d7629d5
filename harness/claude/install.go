package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/saverd/saverd/install"
)

// Claude Code as `saverd install` and `doctor` meet it (install.Target): its settings.json at the user,
// project and local scopes, saverd's hooks and status line merged in, the /saver command file beside
// them, and the saver plugin, whose hooks stand in for install's.

// Scopes are --scope's values for Claude Code, the default first.
func (Harness) Scopes() []string { return []string{"user", "project", "local"} }

// SettingsPath is the file Claude Code reads its hooks from at a scope: ${CLAUDE_CONFIG_DIR:-~/.claude}/
// settings.json, DIR/.claude/settings.json or DIR/.claude/settings.local.json.
func (Harness) SettingsPath(scope, dir string) (string, error) {
	switch scope {
	case "user":
		d, err := install.HomeDir("CLAUDE_CONFIG_DIR", ".claude")
		return filepath.Join(d, "settings.json"), err
	case "project":
		return install.ProjectPath(dir, filepath.Join(".claude", "settings.json"))
	case "local":
		return install.ProjectPath(dir, filepath.Join(".claude", "settings.local.json"))
	}
	return "", fmt.Errorf("unknown scope %q for claude-code: want user, project or local", scope)
}

// InstallFiles merges saverd's hooks and status line into the settings file at o's scope and writes the
// /saver command file beside it. When the saver plugin is enabled, its hooks stand and none are added
// (saverd's own are removed from the file): only the status line and the command file.
func (h Harness) InstallFiles(o install.Options) ([]install.FileReport, error) {
	path, text, exists, err := install.ReadSettings(h, o)
	if err != nil {
		return nil, err
	}
	plugin, err := Plugin(o.Dir)
	if err != nil {
		return nil, err
	}
	e, err := mergeSettings(path, text, o.Bin, plugin == "")
	if err != nil {
		return nil, err
	}
	if plugin != "" {
		e.Notes = append(e.Notes, "the "+plugin+" plugin is enabled and brings saverd's hooks, so none are added here; the status line is, since a plugin cannot set one")
	}
	settings, err := install.SettingsReport(path, text, exists, e, RemoveSettings)
	if err != nil {
		return nil, err
	}
	cmd, err := install.InstallOwnFiles(ownFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	return append([]install.FileReport{settings}, cmd...), nil
}

// UninstallFiles removes saverd's hooks and status line from the settings file at o's scope, and the
// command file unless the person changed it.
func (h Harness) UninstallFiles(o install.Options) ([]install.FileReport, error) {
	path, text, _, err := install.ReadSettings(h, o)
	if err != nil {
		return nil, err
	}
	e, err := RemoveSettings(path, text)
	if err != nil {
		return nil, err
	}
	cmd, err := install.UninstallOwnFiles(ownFiles(o.Scope, o.Dir))
	if err != nil {
		return nil, err
	}
	return append([]install.FileReport{install.Restored(path, text, e)}, cmd...), nil
}

// NextSteps is what a person types once saverd is installed for Claude Code.
func (Harness) NextSteps() []string {
	return []string{
		"Start Claude Code (claude) and work as always; the first hook starts saverd's daemon.",
		"Type /saver for the pane, /saver check to ask the judge, /saver fix 1 to carry a fix into later prompts.",
		"The status line shows saverd's band. A session already open picks up the hooks when restarted.",
	}
}

// DoctorJudge is the judge doctor checks for Claude Code, claude, when saverd is installed for it.
func (Harness) DoctorJudge() (role, program string) { return "judge", "claude" }

// events are the Claude Code events saverd hooks, with the matcher and timeout (seconds) of each.
// UserPromptSubmit waits longest because `/saver check` waits up to 120 s for the judge; Claude Code
// gives all SessionEnd hooks 1.5 s together, so 5 s there only bounds a stuck process.
// UserPromptExpansion runs only for the /saver command (the matcher is read against the command's name:
// saver, or saver:saver for the plugin's) and only when UserPromptSubmit did not block it: it is the
// guard that keeps a /saver line from the model when saverd's UserPromptSubmit hook failed.
var events = []install.Handler{
	{Event: "SessionStart", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 130},
	{Event: "UserPromptExpansion", Matcher: SaverCommandMatcher, Timeout: 10},
	{Event: "PreToolUse", Matcher: "Agent|Task", Timeout: 10},
	{Event: "PostToolUse", Matcher: "*", Timeout: 10},
	{Event: "PostToolUseFailure", Matcher: "*", Timeout: 10},
	{Event: "SubagentStart", Timeout: 10},
	{Event: "SubagentStop", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "PreCompact", Timeout: 10},
	{Event: "PostCompact", Timeout: 10},
	{Event: "SessionEnd", Timeout: 5},
}

// SaverCommandMatcher is the UserPromptExpansion matcher of saverd's guard: the command file's /saver
// and the plugin's /saver:saver.
const SaverCommandMatcher = "^(saver:)?saver$"

// GuardReason is what the person reads when the guard stops a /saver line that saverd's own hook did
// not answer and saverd-hook cannot say more (it is missing, or it failed too). It holds no single
// quote: it is written inside one on the hook's command line.
const GuardReason = "saverd did not answer this /saver line: its UserPromptSubmit hook failed or is missing " +
	"(run saverd doctor). The line was stopped here, so nothing was sent to the model."

// Handlers are the hooks saverd declares for Claude Code, running the binary at bin.
func Handlers(bin string) []install.Handler {
	hs := install.HandlersFor(events, install.ShellQuote(bin)+" hook ")
	for i := range hs {
		if hs[i].Event == "UserPromptExpansion" {
			hs[i].Command = guardCommand(hs[i].Command)
		}
	}
	return hs
}

// guardCommand is the guard's command line: saverd-hook says why the line was not answered, and when it
// cannot run at all (missing, crashed) the shell blocks the line with GuardReason, so the command file's
// body never reaches the model. saverd-hook always exits 0, so the two never both print.
func guardCommand(hook string) string {
	answer, _ := json.Marshal(map[string]any{"decision": "block", "reason": GuardReason,
		"hookSpecificOutput": map[string]any{"hookEventName": "UserPromptExpansion", "suppressOriginalPrompt": true}})
	return hook + " 2>/dev/null || printf '%s\\n' '" + string(answer) + "'"
}

// StatusLine is the status line command saverd declares.
func StatusLine(bin string) string { return install.ShellQuote(bin) + " statusline" }

// MergeSettings returns a Claude Code settings file with saverd's hooks and status line merged in. A status
// line of someone else's is kept (and said so in a note). name is the file's path, for the error when it
// does not parse.
func MergeSettings(name, text, bin string) (install.Edit, error) {
	return mergeSettings(name, text, bin, true)
}

// mergeSettings is MergeSettings; without hooks (the saver plugin brings them) saverd's hooks are removed
// from the file instead, so no event reaches saverd twice, and only the status line is merged.
func mergeSettings(name, text, bin string, hooks bool) (install.Edit, error) {
	return install.EditFile(name, text, func(root *install.Object) ([]string, []string, error) {
		var changes []string
		var err error
		if hooks {
			changes, err = install.MergeHooks(root, Handlers(bin))
		} else {
			changes, err = install.RemoveHooks(root)
		}
		if err != nil {
			return nil, nil, err
		}
		line, note := mergeStatusLine(root, StatusLine(bin))
		var notes []string
		if line != "" {
			changes = append(changes, line)
		}
		if note != "" {
			notes = append(notes, note)
		}
		return changes, notes, nil
	})
}

// StatusRefresh is the status line's refreshInterval saverd sets: Claude Code re-runs the status line
// on its own events only (a turn, a prompt), so without a timer the band stays as it was after a /saver
// command or a background judge result until the next model turn. 1 s is the least Claude Code 2.1.328
// accepts (smaller values are dropped); the command costs about 2 ms of CPU a run (README, Performance).
const StatusRefresh = 1

// mergeStatusLine sets saverd's status line unless the user has a different one. Members of saverd's
// status line the person added (padding) stay, and so does a refreshInterval they chose. It returns the
// change made ("" for none) and a note for a status line it kept.
func mergeStatusLine(root *install.Object, command string) (change, note string) {
	cur, present := root.Lookup("statusLine")
	if !present {
		o := &install.Object{}
		o.Set("type", "command")
		o.Set("command", command)
		o.Set("refreshInterval", json.Number(strconv.Itoa(StatusRefresh)))
		root.Set("statusLine", o)
		return fmt.Sprintf("added statusLine: %s (refreshed every %d s)", command, StatusRefresh), ""
	}
	cmd, isCmd := install.CommandOf(cur)
	if !isCmd || !install.Ours(cmd) {
		return "", "kept your status line " + describe(cur) + " (saverd's band is not shown there)"
	}
	o := cur.(*install.Object)
	changed := false
	if o.Get("type") != "command" {
		o.Set("type", "command")
		changed = true
	}
	if cmd != command {
		o.Set("command", command)
		changed = true
	}
	if n, ok := o.Get("refreshInterval").(json.Number); !ok || !atLeastOne(n) {
		o.Set("refreshInterval", json.Number(strconv.Itoa(StatusRefresh)))
		changed = true
	}
	if !changed {
		return "", ""
	}
	return fmt.Sprintf("updated statusLine: %s (refreshed every %s s)", command, o.Get("refreshInterval")), ""
}

// atLeastOne: a refreshInterval Claude Code keeps (it drops values under 1).
func atLeastOne(n json.Number) bool {
	f, err := n.Float64()
	return err == nil && f >= 1
}

func describe(v any) string {
	if cmd, ok := install.CommandOf(v); ok {
		return fmt.Sprintf("%q", cmd)
	}
	return strings.TrimSpace(install.Format(v))
}

// RemoveSettings returns a Claude Code settings file without saverd's hooks and status line.
func RemoveSettings(name, text string) (install.Edit, error) {
	return install.EditFile(name, text, func(root *install.Object) ([]string, []string, error) {
		changes, err := install.RemoveHooks(root)
		if err != nil {
			return nil, nil, err
		}
		if cmd, ok := install.CommandOf(root.Get("statusLine")); ok && install.Ours(cmd) {
			root.Del("statusLine")
			changes = append(changes, "removed statusLine: "+cmd)
		}
		return changes, nil, nil
	})
}

// Plugin is the enabled saver plugin ("saver@<marketplace>") in the Claude Code settings that
// apply in dir (user, project, local: the enabledPlugins of each, the later scope winning), or "".
// A settings file that cannot be read is an error: install must not add hooks the plugin also brings.
func Plugin(dir string) (string, error) {
	enabled := map[string]bool{}
	var read []string
	for _, scope := range []string{"user", "project", "local"} {
		path, err := Harness{}.SettingsPath(scope, dir)
		if err != nil {
			return "", err
		}
		if slices.Contains(read, path) {
			continue
		}
		read = append(read, path)
		text, exists, err := install.ReadFile(path)
		if err != nil {
			return "", err
		}
		if !exists {
			continue
		}
		root, err := install.ParseObject(text)
		if err != nil {
			continue // Claude Code ignores a file that does not parse; doctor reports it
		}
		plugins, _ := root.Get("enabledPlugins").(*install.Object)
		if plugins == nil {
			continue
		}
		for _, k := range plugins.Keys() {
			if name, _, ok := strings.Cut(k, "@"); ok && name == install.PluginName {
				on, _ := plugins.Get(k).(bool)
				enabled[k] = on
			}
		}
	}
	var on []string
	for k, v := range enabled {
		if v {
			on = append(on, k)
		}
	}
	sort.Strings(on)
	if len(on) == 0 {
		return "", nil
	}
	return on[0], nil
}

// CommandFile is the command file that makes /saver known to Claude Code's interactive UI: without it
// the UI answers "Unknown command: /saver" and no hook runs. The UI then autocompletes /saver with the
// description, and the UserPromptSubmit hook receives the typed line and blocks it, so the body is never
// expanded. disable-model-invocation keeps the command out of the skill listing every request carries
// (the model could otherwise run it itself). The body reaches the model only if both saverd's
// UserPromptSubmit hook and the UserPromptExpansion guard failed to answer: it is one short line that
// asks for one short line back.
const CommandFile = `---
description: saverd — the pane; check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
argument-hint: "check | fix N [note] | ignore N | write N | undo | debug | reset"
disable-model-invocation: true
---
saverd's hook did not answer this command. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// PluginCommandFile is the plugin's /saver:saver command file: CommandFile, its body naming the arguments
// ($ARGUMENTS also keeps Codex from turning the file into a second skill when it installs the plugin).
const PluginCommandFile = `---
description: saverd — the pane; check, fix N [note], ignore N, write N, undo, debug (answered by saverd's hook, never sent to the model)
argument-hint: "check | fix N [note] | ignore N | write N | undo | debug | reset"
disable-model-invocation: true
---
saverd's hook did not answer /saver:saver $ARGUMENTS. Reply with exactly this line and nothing else: saverd did not answer, run saverd doctor.
`

// ownFiles are the files install writes whole for Claude Code at a scope: the /saver command file,
// beside the settings of that scope (~/.claude/commands, DIR/.claude/commands; the local scope has no
// command directory of its own, so it shares the project's).
func ownFiles(scope, dir string) ([]install.OwnFile, error) {
	settings, err := Harness{}.SettingsPath(scope, dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(filepath.Dir(settings), "commands", "saver.md")
	return []install.OwnFile{{Path: path, Text: CommandFile, What: "the /saver command file", Dirs: 1}}, nil
}

// Findings reports Claude Code's hooks at every scope, and whether any scope has them.
func (Harness) Findings(dir string) ([]install.Finding, bool) {
	var out []install.Finding
	var installed, read []string
	for _, scope := range []string{"user", "project", "local"} {
		path, err := Harness{}.SettingsPath(scope, dir)
		if err != nil {
			out = append(out, install.Finding{Level: install.Fix, Text: "claude-code " + scope + ": " + err.Error()})
			continue
		}
		if slices.Contains(read, path) {
			continue // a project at the home directory: its project file is the user's
		}
		read = append(read, path)
		text, exists, err := install.ReadFile(path)
		if err != nil || !exists {
			if err != nil {
				out = append(out, install.Finding{Level: install.Fix, Text: "claude-code: " + err.Error()})
			}
			continue
		}
		root, err := install.ParseObject(text)
		if err != nil {
			out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("claude-code %s: %s does not parse (%v): Claude Code ignores it", scope, path, err)})
			continue
		}
		var present []string
		if hooks, _ := install.HooksTable(root, false); hooks != nil {
			for _, event := range hooks.Keys() {
				groups, _ := hooks.Get(event).([]any)
				for _, g := range groups {
					group, _ := g.(*install.Object)
					if group == nil {
						continue
					}
					handlers, _ := group.Get("hooks").([]any)
					for _, v := range handlers {
						if cmd, ok := install.CommandOf(v); ok && install.Ours(cmd) {
							present = append(present, event+"\x00"+cmd)
						}
					}
				}
			}
		}
		if len(present) == 0 {
			continue
		}
		installed = append(installed, scope)
		out = append(out, install.Coverage("claude-code", scope, path, present, events))
	}
	if len(installed) > 1 {
		out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("claude-code: hooks installed at %s: Claude Code runs every one, so each event reaches saverd %d times; uninstall all but one scope", strings.Join(installed, " and "), len(installed))})
	}
	plugin, err := Plugin(dir)
	switch {
	case err != nil:
		out = append(out, install.Finding{Level: install.Fix, Text: "claude-code: " + err.Error()})
	case plugin != "" && len(installed) > 0:
		out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("claude-code: the %s plugin and saverd's hooks at %s are both installed: the plugin's hooks stand down while those are there, so only one set runs; remove one route (`saverd uninstall claude-code --scope %s`, or `claude plugin uninstall %s`)", plugin, strings.Join(installed, " and "), installed[0], plugin)})
	case plugin != "":
		out = append(out, install.Finding{Level: install.OK, Text: "claude-code: the " + plugin + " plugin brings saverd's hooks (its command is /saver:saver)"})
	case len(installed) == 0:
		out = append(out, install.Finding{Level: install.Note, Text: "claude-code: no saverd hooks at any scope here (user, project, local)"})
	}
	if f := commandFinding(dir, installed); len(installed) > 0 || plugin != "" && f.Level == install.OK {
		// The plugin's own command is /saver:saver, which needs no command file: with the plugin alone,
		// only a /saver the person can also type is worth a line.
		out = append(out, f)
	}
	return out, len(installed) > 0 || plugin != ""
}

// commandFinding says whether /saver is known to Claude Code's interactive UI: without a command file
// the UI answers "Unknown command: /saver" and no hook runs.
func commandFinding(dir string, scopes []string) install.Finding {
	if len(scopes) == 0 {
		scopes = []string{"user"}
	}
	var looked []string
	for _, scope := range []string{"user", scopes[0]} {
		files, err := ownFiles(scope, dir)
		if err != nil {
			return install.Finding{Level: install.Fix, Text: "claude-code: " + err.Error()}
		}
		if slices.Contains(looked, files[0].Path) {
			continue // the user scope's, looked at already
		}
		if _, exists, err := install.ReadFile(files[0].Path); err == nil && exists {
			return install.Finding{Level: install.OK, Text: "claude-code: /saver is known to the interactive UI (" + files[0].Path + ")"}
		}
		looked = append(looked, files[0].Path)
	}
	return install.Finding{Level: install.Fix, Text: fmt.Sprintf("claude-code: no /saver command file (%s): typed in the interactive UI, /saver is an unknown command that no hook sees; run `saverd install claude-code --scope %s`", strings.Join(looked, " or "), scopes[0])}
}

// PluginHooks is the hooks file of saverd's plugin for Claude Code (plugins/saver/hooks/hooks.json): the
// events install declares, each running the plugin's launcher (hooks/run, under ${CLAUDE_PLUGIN_ROOT}),
// which finds the installed saverd-hook (a plugin's bin/ is not on its hooks' PATH) and runs it with
// --plugin; the /saver:saver guard as install's.
func (Harness) PluginHooks() string {
	hs := install.HandlersFor(events, `sh "${CLAUDE_PLUGIN_ROOT}/hooks/run" `)
	for i := range hs {
		if hs[i].Event == "UserPromptExpansion" {
			hs[i].Command = guardCommand(hs[i].Command)
		}
	}
	root := &install.Object{}
	root.Set("description", "saverd: every event to the user's saverd daemon through saverd-hook, and the /saver:saver guard")
	if _, err := install.MergeHooks(root, hs); err != nil {
		return "" // a new object has no hooks of the wrong type
	}
	return install.Format(root)
}
