package install_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/install/installtest"
)

// sandbox, write and read are installtest's.
var (
	sandbox = installtest.Sandbox
	write   = installtest.Write
	read    = installtest.Read
)

// The live harnesses as install meets them.
var cc, cx = claude.Harness{}, codex.Harness{}

// bin is the saverd the hooks install writes run.
const bin = "/opt/saverd/bin/saverd"

// live is what doctor checks, with judge as the configured judgeCommand.
func live(judge string) []install.Named { return all.Doctor(forkcmd.Config{Claude: judge}) }

func TestSettingsPath(t *testing.T) {
	home := sandbox(t)
	for _, c := range []struct {
		harness     install.Target
		scope, want string
	}{
		{cc, "user", home + "/claude/settings.json"},
		{cc, "project", "/p/.claude/settings.json"},
		{cc, "local", "/p/.claude/settings.local.json"},
		{cx, "user", home + "/codex/hooks.json"},
		{cx, "project", "/p/.codex/hooks.json"},
	} {
		got, err := c.harness.SettingsPath(c.scope, "/p")
		if err != nil || got != c.want {
			t.Errorf("SettingsPath(%T, %s) = %q, %v; want %q", c.harness, c.scope, got, err, c.want)
		}
	}
	for _, c := range []struct {
		harness install.Target
		scope   string
	}{{cc, "global"}, {cx, "local"}} {
		if _, err := c.harness.SettingsPath(c.scope, "/p"); err == nil {
			t.Errorf("SettingsPath(%T, %s): want an error", c.harness, c.scope)
		}
	}
	if _, ok := all.LiveOf("cursor"); ok {
		t.Error("cursor is taken for a harness to install into")
	}
}

func TestInstallClaudeFiles(t *testing.T) {
	home := sandbox(t)
	proj := filepath.Join(home, "proj")
	path := filepath.Join(proj, ".claude", "settings.json")
	write(t, path, installtest.ForeignSettings, 0o600)
	o := install.Options{Target: cc, Scope: "project", Dir: proj, Bin: bin}

	o.DryRun = true
	r, err := install.Install(o)
	if err != nil || len(r) != 2 || len(r[0].Edit.Changes) == 0 || len(r[1].Edit.Changes) != 1 {
		t.Fatalf("dry run: %+v, %v", r, err)
	}
	if read(t, path) != installtest.ForeignSettings {
		t.Fatal("a dry run wrote the file")
	}

	o.DryRun = false
	if _, err := install.Install(o); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
	}
	if !strings.Contains(read(t, path), bin+" hook Stop") {
		t.Error("hooks not written")
	}
	if _, err := install.Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if read(t, path) != installtest.ForeignSettings {
		t.Errorf("uninstall left:\n%s", read(t, path))
	}
	left, _ := filepath.Glob(filepath.Join(proj, ".claude", ".*saverd*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestInstallWritesThroughSymlink(t *testing.T) {
	home := sandbox(t)
	real := filepath.Join(home, "dotfiles", "settings.json")
	write(t, real, "{}\n", 0o644)
	link := filepath.Join(home, "claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: bin}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if !strings.Contains(read(t, real), "statusline") {
		t.Error("the link's target was not written")
	}
	// Uninstall empties the target through the link; removing the link would leave the hooks in it.
	if _, err := install.Uninstall(install.Options{Target: cc, Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("uninstall removed the symlink (%v)", err)
	}
	if got := strings.TrimSpace(read(t, real)); got != "{}" {
		t.Errorf("the link's target after uninstall: %s", got)
	}
}

func TestInstallRefusalWritesNothing(t *testing.T) {
	home := sandbox(t)
	bad := "{\n  // mine\n}\n"
	cfg := filepath.Join(home, "codex", "config.toml")
	for _, c := range []struct {
		name string
		o    install.Options
		file string
		text string
	}{
		{"claude settings", install.Options{Target: cc, Scope: "user", Bin: bin}, filepath.Join(home, "claude", "settings.json"), bad},
		{"codex hooks", install.Options{Target: cx, Scope: "user", Bin: bin}, filepath.Join(home, "codex", "hooks.json"), bad},
		{"codex config", install.Options{Target: cx, Scope: "user", Bin: bin}, cfg, "model = = 1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			write(t, c.file, c.text, 0o644)
			defer os.Remove(c.file)
			if _, err := install.Install(c.o); err == nil || !strings.Contains(err.Error(), c.file) {
				t.Errorf("err = %v; want a refusal naming %s", err, c.file)
			}
			if read(t, c.file) != c.text {
				t.Error("a refused file was changed")
			}
			if _, err := os.Stat(filepath.Join(home, "codex", "hooks.json")); c.file == cfg && err == nil {
				t.Error("hooks.json written although config.toml was refused")
			}
		})
	}
	if _, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: "saverd"}); err == nil {
		t.Error("a relative binary path was accepted")
	}
}

func TestInstallCodexRoundTrip(t *testing.T) {
	home := sandbox(t)
	hooks := filepath.Join(home, "codex", "hooks.json")
	cfg := filepath.Join(home, "codex", "config.toml")
	foreign := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"notify-me\",\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	write(t, hooks, foreign, 0o644)
	write(t, cfg, installtest.CodexConfig, 0o600)
	o := install.Options{Target: cx, Scope: "user", Bin: bin}
	r, err := install.Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r) != 4 || r[0].Path != cfg || r[1].Path != hooks {
		t.Fatalf("reports %+v: want config.toml first, then hooks.json, then the skill", r)
	}
	decls, _ := codex.Declarations(hooks, read(t, hooks))
	trust, err := codex.ReadTrust(cfg, read(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	ours := 0
	for _, d := range decls {
		if d.Ours {
			ours++
			if trust[d.Key] != d.Hash || d.Hash == "" {
				t.Errorf("%s: trusted %q, declared %q", d.Key, trust[d.Key], d.Hash)
			}
		}
	}
	if ours != 8 {
		t.Errorf("%d saverd handlers, want 8", ours)
	}
	if !strings.HasPrefix(read(t, cfg), installtest.CodexConfig) {
		t.Error("the user's config.toml text changed")
	}
	if again, _ := install.Install(o); changed(again) != 0 {
		t.Errorf("second install changed %+v", again)
	}
	// A moved binary: new hashes replace the old ones.
	o.Bin = "/new/saverd"
	if _, err := install.Install(o); err != nil {
		t.Fatal(err)
	}
	decls, _ = codex.Declarations(hooks, read(t, hooks))
	trust, _ = codex.ReadTrust(cfg, read(t, cfg))
	for _, d := range decls {
		if d.Ours && trust[d.Key] != d.Hash {
			t.Errorf("after a move %s is untrusted", d.Key)
		}
	}
	if _, err := install.Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if read(t, hooks) != foreign || read(t, cfg) != installtest.CodexConfig {
		t.Errorf("uninstall left:\n%s\n%s", read(t, hooks), read(t, cfg))
	}
}

func TestUninstallCodexNotesMovedForeignHook(t *testing.T) {
	sandbox(t)
	o := install.Options{Target: cx, Scope: "user", Bin: bin}
	if _, err := install.Install(o); err != nil {
		t.Fatal(err)
	}
	path, _ := cx.SettingsPath("user", "")
	// The person adds a Stop hook after saverd's: uninstalling moves it from group 1 to group 0.
	root, _ := install.ParseObject(read(t, path))
	hooks, _ := install.HooksTable(root, false)
	stop := hooks.Get("Stop").([]any)
	mine := &install.Object{}
	handler := &install.Object{}
	handler.Set("type", "command")
	handler.Set("command", "mine")
	handler.Set("timeout", json.Number("1"))
	mine.Set("hooks", []any{handler})
	hooks.Set("Stop", append(stop, mine))
	write(t, path, install.Format(root), 0o644)
	r, err := install.Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	notes := r[1].Edit.Notes
	if len(notes) != 1 || !strings.Contains(notes[0], `"mine"`) || !strings.Contains(notes[0], "stop:1:0") {
		t.Errorf("notes = %q; want one naming the moved hook", notes)
	}
}

// changed counts the changes of reports.
func changed(reports []install.FileReport) int {
	n := 0
	for _, r := range reports {
		n += len(r.Edit.Changes)
	}
	return n
}
