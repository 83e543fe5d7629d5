package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/install/installtest"
)

// pluginHome is a CODEX_HOME where saverd's plugin (this repository's plugins/saver) is installed as
// `codex plugin add saver@saverd` installs it, with config.toml as cfgText leaves it.
func pluginHome(t *testing.T, cfgText string) string {
	t.Helper()
	home := filepath.Join(installtest.Sandbox(t), "codex")
	copyOf := filepath.Join(home, "plugins", "cache", "saverd", "saver", "0.1.0")
	for _, f := range []string{".codex-plugin/plugin.json", "hooks/codex.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "plugins", "saver", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		installtest.Write(t, filepath.Join(copyOf, filepath.FromSlash(f)), string(data), 0o644)
	}
	installtest.Write(t, filepath.Join(home, "config.toml"), cfgText, 0o600)
	return home
}

// TestPluginIsAnInstall: saverd's plugin, enabled and trusted as Codex 0.169.0 itself trusted it (the
// hashes in testdata/plugin/config.toml are the ones Codex wrote), is a working install: doctor finds
// every hook trusted and nothing to fix. A trust dropped, plugins switched off, or no installed copy is
// each said.
func TestPluginIsAnInstall(t *testing.T) {
	observed, err := os.ReadFile("testdata/plugin/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(observed)
	firstTrust := strings.Index(cfg, "[hooks.state.\"")
	secondTrust := strings.Index(cfg[firstTrust+1:], "[hooks.state.\"") + firstTrust + 1
	for _, tc := range []struct {
		name      string
		cfg       string
		noCopy    bool
		installed bool
		fix       string // a FIX line says this; "" none
		ok        string // an OK line says this
	}{
		{name: "enabled and trusted", cfg: cfg, installed: true, ok: "the saver@saverd plugin brings saverd's hooks, all 8 trusted"},
		{name: "one hook not trusted", cfg: cfg[:firstTrust] + cfg[secondTrust:], installed: true,
			fix: "UNTRUSTED — Codex skips the saver@saverd plugin's PreToolUse hooks"},
		{name: "plugins off", cfg: strings.Replace(cfg, "plugins = true", "plugins = false", 1), installed: false},
		{name: "no installed copy", cfg: cfg, noCopy: true, installed: true, fix: "Codex has no installed copy of it: run `codex plugin add saver@saverd`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := pluginHome(t, tc.cfg)
			if tc.noCopy {
				if err := os.RemoveAll(filepath.Join(home, "plugins")); err != nil {
					t.Fatal(err)
				}
			}
			got, installed := Harness{}.Findings(t.TempDir())
			if installed != tc.installed {
				t.Errorf("installed = %v, want %v: %+v", installed, tc.installed, got)
			}
			var fixes, oks []string
			for _, f := range got {
				switch f.Level {
				case install.Fix:
					fixes = append(fixes, f.Text)
				case install.OK:
					oks = append(oks, f.Text)
				}
			}
			if fix := strings.Join(fixes, "\n"); (tc.fix == "") != (fix == "") || !strings.Contains(fix, tc.fix) {
				t.Errorf("fixes %q, want one saying %q", fixes, tc.fix)
			}
			if ok := strings.Join(oks, "\n"); !strings.Contains(ok, tc.ok) {
				t.Errorf("ok lines %q, want one saying %q", oks, tc.ok)
			}
		})
	}
}
