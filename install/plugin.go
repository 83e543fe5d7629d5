package install

import (
	"slices"
	"sort"
	"strings"
)

// PluginName is the name of saverd's plugin (this repository's plugins/saver): Claude Code namespaces a
// plugin's command as <plugin>:<command>, so the plugin's command is /saver:saver.
const PluginName = "saver"

// ClaudePlugin is the enabled saver plugin ("saver@<marketplace>") in the Claude Code settings that
// apply in dir (user, project, local: the enabledPlugins of each, the later scope winning), or "".
// A settings file that cannot be read is an error: install must not add hooks the plugin also brings.
func ClaudePlugin(dir string) (string, error) {
	enabled := map[string]bool{}
	var read []string
	for _, scope := range []string{"user", "project", "local"} {
		path, err := SettingsPath(ClaudeCode, scope, dir)
		if err != nil {
			return "", err
		}
		if slices.Contains(read, path) {
			continue
		}
		read = append(read, path)
		text, exists, err := readFile(path)
		if err != nil {
			return "", err
		}
		if !exists {
			continue
		}
		root, err := parseObject(text)
		if err != nil {
			continue // Claude Code ignores a file that does not parse; doctor reports it
		}
		plugins, _ := root.Get("enabledPlugins").(*object)
		if plugins == nil {
			continue
		}
		for _, k := range plugins.Keys() {
			if name, _, ok := strings.Cut(k, "@"); ok && name == PluginName {
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

// PluginHooks is the hooks file of saverd's plugin for a harness: the events install declares, each
// running the plugin's launcher (hooks/run), which finds the installed saverd-hook — a plugin's bin/ is
// not on its hooks' PATH — and runs it with --plugin. Claude Code names the plugin's root
// ${CLAUDE_PLUGIN_ROOT}, Codex ${PLUGIN_ROOT}.
func PluginHooks(harness string) string {
	events, launch := claudeEvents, `sh "${CLAUDE_PLUGIN_ROOT}/hooks/run" `
	if harness == Codex {
		events, launch = codexEvents, `sh "${PLUGIN_ROOT}/hooks/run" --harness codex `
	}
	hs := handlersFor(events, launch)
	for i := range hs {
		if hs[i].Event == "UserPromptExpansion" {
			hs[i].Command = guardCommand(hs[i].Command)
		}
	}
	root := &object{}
	if harness == ClaudeCode {
		root.Set("description", "saverd: every event to the user's saverd daemon through saverd-hook, and the /saver:saver guard")
	}
	if _, err := mergeHooks(root, hs); err != nil {
		return "" // a new object has no hooks of the wrong type
	}
	return format(root)
}
