//go:build unix

package install_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/install"
)

func TestUninstallAfterTheirEdits(t *testing.T) {
	home := sandbox(t)
	path := filepath.Join(home, "claude", "settings.json")
	orig := "{\n  \"hooks\": {}\n}\n"
	write(t, path, orig, 0o644)
	o := install.Options{Target: cc, Scope: "user", Bin: bin}
	if _, err := install.Install(o); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(read(t, path), "{\n", "{\n  \"model\": \"opus\",\n", 1)
	write(t, path, edited, 0o644)
	if _, err := install.Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), "{\n  \"model\": \"opus\"\n}\n"; got != want {
		t.Errorf("uninstall after an edit left\n%q\nwant\n%q", got, want)
	}
}

// TestInstallOverSaverdsOwnEntries: a file that already held saverd's entries when install found it has
// no original to give back: uninstall removes the entries and keeps the rest.
func TestInstallOverSaverdsOwnEntries(t *testing.T) {
	home := sandbox(t)
	path := filepath.Join(home, "claude", "settings.json")
	first, err := claude.MergeSettings(path, "{\n  \"model\": \"opus\"\n}\n", "/old/saverd")
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, first.Text, 0o644)
	o := install.Options{Target: cc, Scope: "user", Bin: bin}
	if _, err := install.Install(o); err != nil {
		t.Fatal(err)
	}
	if _, err := install.Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "{\n  \"model\": \"opus\"\n}\n" {
		t.Errorf("uninstall left %q", got)
	}
}

// TestFIFOSettingsRefused: a FIFO where a settings file should be is refused at once, named, by install
// and by doctor — its open would wait for a writer for good.
func TestFIFOSettingsRefused(t *testing.T) {
	home := sandbox(t)
	path := filepath.Join(home, "claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: bin})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("install: err = %v; want a refusal naming the FIFO", err)
		}
		found := false
		for _, f := range install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: home, Socket: filepath.Join(home, "none.sock"), DaemonWait: time.Second, VersionWait: time.Second}) {
			if f.Level == install.Fix && strings.Contains(f.Text, path) && strings.Contains(f.Text, "FIFO") {
				found = true
			}
		}
		if !found {
			t.Error("doctor did not name the FIFO")
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("install or doctor hung on a FIFO settings file")
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
}

// TestDanglingSymlink: a dotfiles link whose target is not made yet is written through when the target's
// directory exists, and refused, nothing written, when it does not; it is never replaced by a file.
func TestDanglingSymlink(t *testing.T) {
	for _, c := range []struct {
		name    string
		makeDir bool
	}{{"target directory exists", true}, {"target directory missing", false}} {
		t.Run(c.name, func(t *testing.T) {
			home := sandbox(t)
			target := filepath.Join(home, "dotfiles", "claude", "settings.json")
			if c.makeDir {
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(home, "claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../dotfiles/claude/settings.json", link); err != nil {
				t.Fatal(err)
			}
			o := install.Options{Target: cc, Scope: "user", Bin: bin}
			_, err := install.Install(o)
			if fi, lerr := os.Lstat(link); lerr != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced (%v)", lerr)
			}
			if !c.makeDir {
				if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symlink") {
					t.Errorf("err = %v; want a refusal naming the link", err)
				}
				if _, err := os.Stat(filepath.Join(home, "claude", "commands")); !os.IsNotExist(err) {
					t.Error("a refused install wrote the command file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(read(t, target), "statusline") {
				t.Error("the link's target was not written")
			}
			if _, err := install.Uninstall(o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(target); !os.IsNotExist(err) {
				t.Errorf("uninstall left the target install made: %v", err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("uninstall removed the link (%v)", err)
			}
		})
	}
}

// TestInstallWithThePlugin: with the saver plugin enabled, install adds no hooks (and takes saverd's
// own out of the file), and still adds the status line and the command file.
func TestInstallWithThePlugin(t *testing.T) {
	home := sandbox(t)
	path := filepath.Join(home, "claude", "settings.json")
	withHooks, err := claude.MergeSettings(path, "{\n  \"enabledPlugins\": {\n    \"saver@saverd\": true\n  }\n}\n", bin)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, withHooks.Text, 0o644)
	r, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: bin})
	if err != nil {
		t.Fatal(err)
	}
	text := read(t, path)
	if strings.Contains(text, " hook ") || !strings.Contains(text, bin+" statusline") {
		t.Errorf("with the plugin: want the status line and no hooks:\n%s", text)
	}
	if len(r[0].Edit.Notes) == 0 || !strings.Contains(strings.Join(r[0].Edit.Notes, " "), "saver@saverd plugin") {
		t.Errorf("notes %q: want one naming the plugin", r[0].Edit.Notes)
	}
	if read(t, filepath.Join(home, "claude", "commands", "saver.md")) != claude.CommandFile {
		t.Error("the command file was not written")
	}
	if p, _ := claude.Plugin(""); p != "saver@saverd" {
		t.Errorf("ClaudePlugin = %q", p)
	}
}

// TestOwnFilesOfThePerson: a command file or skill that is not saverd's text is kept by install and by
// uninstall, each saying so.
func TestOwnFilesOfThePerson(t *testing.T) {
	home := sandbox(t)
	cmd := filepath.Join(home, "claude", "commands", "saver.md")
	write(t, cmd, "my own saver\n", 0o644)
	o := install.Options{Target: cc, Scope: "user", Bin: bin}
	r, err := install.Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, cmd) != "my own saver\n" || len(r[1].Edit.Notes) != 1 {
		t.Errorf("install over the person's command file: %q, notes %q", read(t, cmd), r[1].Edit.Notes)
	}
	r, err = install.Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, cmd) != "my own saver\n" || len(r[1].Edit.Notes) != 1 {
		t.Errorf("uninstall removed or did not name the person's command file: notes %q", r[1].Edit.Notes)
	}
	// Codex: the skill and its policy, removed with their directories.
	co := install.Options{Target: cx, Scope: "user", Bin: bin}
	if _, err := install.Install(co); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(home, "codex", "skills", "saver")
	if read(t, filepath.Join(skill, "SKILL.md")) != codex.Skill || read(t, filepath.Join(skill, "agents", "openai.yaml")) != codex.SkillPolicy {
		t.Fatal("the skill was not written")
	}
	if _, err := install.Uninstall(co); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(skill); !os.IsNotExist(err) {
		t.Errorf("the skill's directory is left: %v", err)
	}
}
