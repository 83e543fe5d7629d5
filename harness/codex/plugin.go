package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	json "github.com/segmentio/encoding/json"

	"github.com/pelletier/go-toml/v2"

	"github.com/saverd/saverd/install"
)

// PluginInstall is saverd's plugin as Codex 0.169.0 runs it: enabled in config.toml ([features]
// plugins = true and [plugins."saver@<marketplace>"] enabled = true), its hooks read from the copy
// `codex plugin add` made under ${CODEX_HOME}/plugins/cache/<marketplace>/saver/<version>/ (Codex runs
// that copy, not the marketplace's), each trusted in config.toml under
// [hooks.state."saver@<marketplace>:<the manifest's hooks file>:<event>:<group>:<handler>"].
type PluginInstall struct {
	ID    string // saver@<marketplace>
	Dir   string // the installed copy; "" when none was found
	Hooks string // the hooks file in it, as the manifest names it (hooks/codex.json)
}

// EnabledPlugin is the saver plugin config.toml enables, or ok false: none is, or plugins are off.
// cfgText is config.toml's text; one that does not parse enables nothing (doctor says it does not parse).
func EnabledPlugin(cfg, cfgText string) (PluginInstall, bool) {
	var doc struct {
		Features struct {
			Plugins bool `toml:"plugins"`
		} `toml:"features"`
		Plugins map[string]struct {
			Enabled bool `toml:"enabled"`
		} `toml:"plugins"`
	}
	if toml.Unmarshal([]byte(cfgText), &doc) != nil || !doc.Features.Plugins {
		return PluginInstall{}, false
	}
	var ids []string
	for id, p := range doc.Plugins {
		if name, _, ok := strings.Cut(id, "@"); ok && name == install.PluginName && p.Enabled {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return PluginInstall{}, false
	}
	sort.Strings(ids)
	p := PluginInstall{ID: ids[0]}
	_, market, _ := strings.Cut(p.ID, "@")
	p.Dir, p.Hooks = installedCopy(filepath.Join(filepath.Dir(cfg), "plugins", "cache", market, install.PluginName))
	return p, true
}

// installedCopy is the newest version directory under dir and the hooks file its manifest names; "" when
// there is none.
func installedCopy(dir string) (string, string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", ""
	}
	var newest string
	var at int64
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		if t := fi.ModTime().UnixNano(); newest == "" || t > at {
			newest, at = filepath.Join(dir, e.Name()), t
		}
	}
	if newest == "" {
		return "", ""
	}
	hooks := "hooks/hooks.json"
	if data, err := os.ReadFile(filepath.Join(newest, ".codex-plugin", "plugin.json")); err == nil {
		var m struct {
			Hooks string `json:"hooks"`
		}
		if json.Unmarshal(data, &m) == nil && m.Hooks != "" {
			hooks = filepath.ToSlash(filepath.Clean(m.Hooks))
		}
	}
	return newest, hooks
}

// pluginFindings reports the plugin's hooks: every event saverd hooks declared in the installed copy and
// trusted (Codex skips an untrusted hook without a word, and asks for review at its next start).
// installed names the scopes whose hooks.json holds saverd's own hooks: the plugin's then stand down.
func pluginFindings(p PluginInstall, trust map[string]string, cfg string, installed []string) []install.Finding {
	if p.Dir == "" {
		return []install.Finding{{Level: install.Fix, Text: fmt.Sprintf("codex: the %s plugin is enabled in %s but Codex has no installed copy of it: run `codex plugin add %s`", p.ID, cfg, p.ID)}}
	}
	path := filepath.Join(p.Dir, filepath.FromSlash(p.Hooks))
	text, exists, err := install.ReadFile(path)
	if err == nil && !exists {
		err = fmt.Errorf("%s: no such file", path)
	}
	var decls []Declared
	if err == nil {
		decls, err = Declarations(p.ID+":"+p.Hooks, text)
	}
	if err != nil {
		return []install.Finding{{Level: install.Fix, Text: fmt.Sprintf("codex: the %s plugin's hooks: %v: Codex runs none of them", p.ID, err)}}
	}
	var out []install.Finding
	var have, untrustedEvents []string
	for _, d := range decls { // every handler of the plugin's own hooks file is saverd's (it runs hooks/run)
		have = append(have, d.Event)
		if d.Hash == "" || trust[d.Key] != d.Hash {
			untrustedEvents = append(untrustedEvents, d.Event)
		}
	}
	if len(untrustedEvents) > 0 {
		out = append(out, install.Finding{Level: install.Fix, First: true, Text: fmt.Sprintf("codex: UNTRUSTED — Codex skips the %s plugin's %s hooks without a word until they are trusted in %s: start codex and choose \"Trust all and continue\" when it asks to review hooks", p.ID, strings.Join(untrustedEvents, ", "), cfg)})
	}
	var missing []string
	for _, h := range events {
		if !slices.Contains(have, h.Event) {
			missing = append(missing, h.Event)
		}
	}
	switch {
	case len(missing) > 0:
		out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("codex: the %s plugin (%s) has no saverd hook for %s: run `codex plugin add %s` again", p.ID, path, strings.Join(missing, ", "), p.ID)})
	case len(installed) > 0:
		out = append(out, install.Finding{Level: install.Fix, Text: fmt.Sprintf("codex: the %s plugin and saverd's hooks at %s are both installed: the plugin's hooks stand down while those are there, so only one set runs; remove one route (`saverd uninstall codex --scope %s`, or `codex plugin remove %s`)", p.ID, strings.Join(installed, " and "), installed[0], p.ID)})
	case len(untrustedEvents) == 0:
		out = append(out, install.Finding{Level: install.OK, Text: fmt.Sprintf("codex: the %s plugin brings saverd's hooks, all %d trusted (%s; its command is $saver:saver)", p.ID, len(events), path)})
	}
	return out
}
