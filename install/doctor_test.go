package install_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/install"
)

// fakeBin puts an executable script named name on a fresh PATH.
func fakeBin(t *testing.T, dir, name, script string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	write(t, path, "#!/bin/sh\n"+script+"\n", 0o755)
	return path
}

// answering serves a socket that answers every line with reply (none: accepts and stays silent).
func answering(t *testing.T, reply string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o700); err != nil { // the user's own, as a client wants it
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := bufio.NewReader(c).ReadBytes('\n'); err != nil || reply == "" {
					time.Sleep(2 * time.Second)
					return
				}
				c.Write([]byte(reply + "\n"))
			}()
		}
	}()
	return sock
}

func TestDoctor(t *testing.T) {
	type setup struct {
		claude, codex bool   // install for the harness (user scope)
		untrust       bool   // drop the trust of one codex hook
		socket        string // "" none; "ok"; "silent"
		judge         string // script body of claude --version; "" none on PATH
		plugin        string // "before" / "after": the saver plugin enabled before or after install
		codexPlugin   bool   // saverd's plugin installed in Codex and its hooks trusted
		noCommand     bool   // the /saver command file removed
		codexJudge    bool   // codex on PATH
		uninstalled   bool   // the uninstall's mark is there
	}
	for _, c := range []struct {
		name   string
		s      setup
		fix    bool
		first  string   // the first line must contain this
		expect []string // and some line each of these
		absent []string // and no line any of these
	}{
		{"all well", setup{claude: true, socket: "ok", judge: "echo 2.1.328"}, false, "claude-code user",
			[]string{"hooks installed for all 12 events", "daemon: answers at", "(saverd 0.1.0)", "judge: ", "(2.1.328)"}, nil},
		{"no daemon is fine", setup{claude: true, judge: "echo 1"}, false, "claude-code user", []string{"no daemon running", "the first hook starts one"}, nil},
		{"nothing installed", setup{judge: "echo 1"}, true, "claude-code: no saverd hooks", []string{"no saverd hooks installed for Claude Code or Codex"}, nil},
		{"untrusted first", setup{claude: true, codex: true, untrust: true, judge: "echo 1"}, true, "UNTRUSTED", []string{"codex judge: codex not found"}, nil},
		{"silent daemon", setup{claude: true, socket: "silent", judge: "echo 1"}, true, "claude-code", []string{"did not answer initialize"}, nil},
		{"socket directory open to all", setup{claude: true, socket: "open", judge: "echo 1"}, true, "claude-code", []string{"the hooks refuse the socket", "has mode 0777"}, nil},
		{"no judge", setup{claude: true}, true, "claude-code", []string{"judge: claude not found on PATH"}, nil},
		{"judge hangs", setup{claude: true, judge: "exec /bin/sleep 30"}, true, "claude-code", []string{"did not answer within"}, nil},
		{"judge fails", setup{claude: true, judge: "echo broken >&2; exit 3"}, true, "claude-code", []string{"--version failed", "broken"}, nil},
		{"the plugin brings the hooks", setup{claude: true, plugin: "before", judge: "echo 1"}, false, "claude-code", []string{"the saver@saverd plugin brings saverd's hooks", "/saver is known"}, nil},
		{"plugin and hooks both", setup{claude: true, plugin: "after", judge: "echo 1"}, true, "claude-code", []string{"plugin and saverd's hooks at user are both installed"}, nil},
		{"no command file", setup{claude: true, noCommand: true, judge: "echo 1"}, true, "claude-code", []string{"no /saver command file", "unknown command"}, nil},
		// A plugin is an install: the Claude Code plugin's command is /saver:saver, which needs no command
		// file; the Codex plugin's hooks run once trusted.
		{"only the Claude Code plugin", setup{plugin: "before", judge: "echo 1"}, false, "claude-code", []string{"the saver@saverd plugin brings saverd's hooks (its command is /saver:saver)"}, nil},
		{"only the Codex plugin", setup{codexPlugin: true, judge: "echo 1"}, false, "claude-code", []string{"codex: the saver@saverd plugin brings saverd's hooks, all 8 trusted"}, nil},
		// A harness that is not installed forks no judge: a Codex-only user needs no claude on PATH.
		{"codex only, no claude", setup{codex: true, codexJudge: true}, false, "claude-code", []string{"codex judge: ", "codex-cli 0.169.0"}, []string{"claude not found"}},
		{"codex plugin only, no claude", setup{codexPlugin: true}, false, "claude-code", nil, []string{"claude not found"}},
		{"codex judge missing says $saver", setup{codex: true}, true, "claude-code", []string{"codex judge: codex not found on PATH: $saver check cannot run"}, []string{"/saver", "claude not found"}},
		{"claude judge missing says /saver", setup{claude: true}, true, "claude-code", []string{"judge: claude not found on PATH: /saver check cannot run"}, []string{"codex judge"}},
		{"after an uninstall hooks start no daemon", setup{uninstalled: true}, true, "claude-code", []string{"no daemon running", "hooks start none: saverd was uninstalled", "saverd install takes that mark away"}, []string{"the first hook starts one"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := sandbox(t)
			binDir := filepath.Join(home, "bin")
			self := fakeBin(t, binDir, "saverd", "exit 0")
			t.Setenv("PATH", binDir)
			if c.s.judge != "" {
				fakeBin(t, binDir, "claude", c.s.judge)
			}
			settings := filepath.Join(home, "claude", "settings.json")
			enable := func() {
				text := `{"enabledPlugins":{"saver@saverd":true}}`
				if c.s.plugin == "after" {
					text = strings.Replace(read(t, settings), "{", `{"enabledPlugins":{"saver@saverd":true},`, 1)
				}
				write(t, settings, text, 0o644)
			}
			if c.s.plugin == "before" {
				enable()
			}
			if c.s.claude {
				if _, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: self}); err != nil {
					t.Fatal(err)
				}
			}
			if c.s.plugin == "after" {
				enable()
			}
			if c.s.noCommand {
				os.Remove(filepath.Join(home, "claude", "commands", "saver.md"))
			}
			if c.s.codex {
				if _, err := install.Install(install.Options{Target: cx, Scope: "user", Bin: self}); err != nil {
					t.Fatal(err)
				}
			}
			if c.s.codexPlugin {
				installCodexPlugin(t, home)
				fakeBin(t, binDir, "codex", "echo codex-cli 0.169.0")
			}
			if c.s.codexJudge {
				fakeBin(t, binDir, "codex", "echo codex-cli 0.169.0")
			}
			mark := filepath.Join(home, "state", "uninstalled")
			if c.s.uninstalled {
				write(t, mark, "saverd was uninstalled\n", 0o600)
			}
			if c.s.untrust {
				cfg, _ := codex.ConfigPath()
				text := read(t, cfg)
				i := strings.Index(text, "[hooks.state.")
				j := strings.Index(text[i+1:], "[hooks.state.") + i + 1
				write(t, cfg, text[:i]+text[j:], 0o600)
			}
			sock := filepath.Join(home, "run", "none.sock")
			switch c.s.socket {
			case "ok":
				sock = answering(t, `{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"saverd","version":"0.1.0"},"protocolVersion":"1"}}`)
			case "silent":
				sock = answering(t, "")
			case "open":
				// A daemon that answers, in a directory every user may enter: nothing is asked of it.
				sock = answering(t, `{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"saverd","version":"0.1.0"},"protocolVersion":"1"}}`)
				if err := os.Chmod(filepath.Dir(sock), 0o777); err != nil {
					t.Fatal(err)
				}
			}
			got := install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: home, Socket: sock, DaemonWait: 200 * time.Millisecond, VersionWait: 300 * time.Millisecond, UninstallMark: mark})
			var lines []string
			fix := false
			for _, f := range got {
				lines = append(lines, f.Text)
				fix = fix || f.Level == install.Fix
			}
			all := strings.Join(lines, "\n")
			if fix != c.fix {
				t.Errorf("needs fixing = %v, want %v:\n%s", fix, c.fix, all)
			}
			for _, m := range samePathTwice.FindAllStringSubmatch(all, -1) {
				if m[1] == m[2] {
					t.Errorf("a line names %s twice:\n%s", m[1], all)
				}
			}
			if strings.Contains(all, "no saverd hooks installed") && (c.s.plugin != "" || c.s.codexPlugin) {
				t.Errorf("a plugin is an install:\n%s", all)
			}
			if !strings.Contains(lines[0], c.first) {
				t.Errorf("first line %q, want it to say %q:\n%s", lines[0], c.first, all)
			}
			for _, e := range c.expect {
				if !strings.Contains(all, e) {
					t.Errorf("no line says %q:\n%s", e, all)
				}
			}
			for _, a := range c.absent {
				if strings.Contains(all, a) {
					t.Errorf("a line says %q:\n%s", a, all)
				}
			}
		})
	}
}

func TestDoctorMovedBinaryAndTwoScopes(t *testing.T) {
	home := sandbox(t)
	t.Setenv("PATH", "")
	gone := filepath.Join(home, "gone", "saverd")
	for _, scope := range []string{"user", "project"} {
		if _, err := install.Install(install.Options{Target: cc, Scope: scope, Dir: home, Bin: gone}); err != nil {
			t.Fatal(err)
		}
	}
	var all []string
	for _, f := range install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: home, Socket: filepath.Join(home, "run", "x.sock"), DaemonWait: time.Second, VersionWait: time.Second}) {
		all = append(all, f.Text)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{gone + ", which is not an executable file", "installed at user and project", "each event reaches saverd 2 times"} {
		if !strings.Contains(text, want) {
			t.Errorf("no line says %q:\n%s", want, text)
		}
	}
}

// TestDoctorCodexTwoScopes: saverd in both the user's and a project's hooks.json is a fault, as for Claude
// Code: each event would reach saverd twice.
func TestDoctorCodexTwoScopes(t *testing.T) {
	home := sandbox(t)
	self := fakeBin(t, filepath.Join(home, "bin"), "saverd", "exit 0")
	proj := filepath.Join(home, "proj")
	for _, scope := range []string{"user", "project"} {
		if _, err := install.Install(install.Options{Target: cx, Scope: scope, Dir: proj, Bin: self}); err != nil {
			t.Fatal(err)
		}
	}
	var fixes []string
	for _, f := range install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: proj, Socket: filepath.Join(home, "run", "x.sock"), DaemonWait: time.Second, VersionWait: time.Second}) {
		if f.Level == install.Fix {
			fixes = append(fixes, f.Text)
		}
	}
	if text := strings.Join(fixes, "\n"); !strings.Contains(text, "codex: hooks installed at user and project") {
		t.Errorf("no FIX says saverd is at both scopes:\n%s", text)
	}
}

func TestCodexProjectNeedsTrust(t *testing.T) {
	home := sandbox(t)
	self := fakeBin(t, filepath.Join(home, "bin"), "saverd", "exit 0")
	proj := filepath.Join(home, "proj")
	r, err := install.Install(install.Options{Target: cx, Scope: "project", Dir: proj, Bin: self})
	if err != nil {
		t.Fatal(err)
	}
	if notes := r[0].Edit.Notes; len(notes) != 1 || !strings.Contains(notes[0], "only in a trusted project") {
		t.Errorf("install notes = %q; want one saying the project is not trusted", notes)
	}
	doctor := func() []install.Finding {
		return install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: proj, Socket: filepath.Join(home, "run", "x.sock"), DaemonWait: time.Second, VersionWait: time.Second})
	}
	if f := doctor()[0]; f.Level != install.Fix || !strings.Contains(f.Text, "UNTRUSTED PROJECT") {
		t.Errorf("first finding %+v; want the untrusted project", f)
	}
	cfg, _ := codex.ConfigPath()
	write(t, cfg, read(t, cfg)+"\n[projects."+strconv.Quote(proj)+"]\ntrust_level = \"trusted\"\n", 0o600) // a TOML basic string, for a plain path

	for _, f := range doctor() {
		if strings.Contains(f.Text, "UNTRUSTED") {
			t.Errorf("still reported after trusting the project: %s", f.Text)
		}
	}
}

func TestDoctorJudgeConfig(t *testing.T) {
	home := sandbox(t)
	bin := filepath.Join(home, "bin")
	t.Setenv("PATH", bin)
	fakeBin(t, bin, "my-judge", "echo judge 1.0")
	self := fakeBin(t, bin, "saverd", "exit 0")
	if _, err := install.Install(install.Options{Target: cc, Scope: "user", Bin: self}); err != nil {
		t.Fatal(err)
	}
	run := func(o install.DoctorOptions) string {
		o.Dir, o.Socket, o.DaemonWait, o.VersionWait = home, filepath.Join(home, "run", "x.sock"), time.Second, time.Second
		var lines []string
		for _, f := range install.Doctor(context.Background(), o) {
			lines = append(lines, fmt.Sprint(f.Level, " ", f.Text))
		}
		return strings.Join(lines, "\n")
	}
	if got := run(install.DoctorOptions{Harnesses: live("my-judge --flag"), JudgeSource: "SAVERD_JUDGE_CMD"}); !strings.Contains(got, "0 judge (SAVERD_JUDGE_CMD): "+bin+"/my-judge runs (judge 1.0)") {
		t.Errorf("configured judge:\n%s", got)
	}
	if got := run(install.DoctorOptions{Harnesses: live(""), JudgeErr: errors.New("read /c/config.json: bad")}); !strings.Contains(got, "2 judge: read /c/config.json: bad") {
		t.Errorf("config error:\n%s", got)
	}
}

// TestDoctorProjectAtHome: a project at the home directory has one settings file for the user and the
// project scopes; doctor reads it once, for each harness, rather than calling one install two.
func TestDoctorProjectAtHome(t *testing.T) {
	home := sandbox(t)
	t.Setenv("CLAUDE_CONFIG_DIR", "") // ~/.claude, which is also the home project's .claude
	t.Setenv("CODEX_HOME", "")        // ~/.codex, likewise
	self := fakeBin(t, filepath.Join(home, "bin"), "saverd", "exit 0")
	for _, h := range []install.Target{cc, cx} {
		if _, err := install.Install(install.Options{Target: h, Scope: "user", Dir: home, Bin: self}); err != nil {
			t.Fatal(err)
		}
	}
	var all []string
	for _, f := range install.Doctor(context.Background(), install.DoctorOptions{Harnesses: live(""), Dir: home, Socket: filepath.Join(home, "run", "x.sock"), DaemonWait: time.Second, VersionWait: time.Second}) {
		all = append(all, f.Text)
	}
	text := strings.Join(all, "\n")
	for _, bad := range []string{"installed at user and project", "2 times"} {
		if strings.Contains(text, bad) {
			t.Errorf("one file read as two scopes (%q):\n%s", bad, text)
		}
	}
	for _, h := range []string{"claude-code user", "codex user"} {
		if n := strings.Count(text, h); n != 1 {
			t.Errorf("%d coverage lines for %s, want 1:\n%s", n, h, text)
		}
	}
}

// samePathTwice finds "(A or B)" in doctor's lines: the places a finding names where it looked.
var samePathTwice = regexp.MustCompile(`\((\S+) or (\S+)\)`)

// installCodexPlugin installs this repository's plugin in Codex as `codex plugin add saver@saverd` does
// (a copy under plugins/cache, enabled in config.toml with plugins on) and trusts its hooks as Codex's
// review does (the hashes Codex computes, codex.Declarations).
func installCodexPlugin(t *testing.T, home string) {
	t.Helper()
	codexHome := filepath.Join(home, "codex")
	copyOf := filepath.Join(codexHome, "plugins", "cache", "saverd", "saver", "0.1.0")
	var hooks string
	for _, f := range []string{".codex-plugin/plugin.json", "hooks/codex.json"} {
		text := read(t, filepath.Join("..", "plugins", "saver", filepath.FromSlash(f)))
		write(t, filepath.Join(copyOf, filepath.FromSlash(f)), text, 0o644)
		hooks = text
	}
	decls, err := codex.Declarations("saver@saverd:hooks/codex.json", hooks)
	if err != nil || len(decls) == 0 {
		t.Fatalf("the plugin's hooks: %v", err)
	}
	cfg := "[features]\nplugins = true\n\n[plugins.\"saver@saverd\"]\nenabled = true\n"
	for _, d := range decls {
		cfg += "\n[hooks.state." + strconv.Quote(d.Key) + "]\ntrusted_hash = " + strconv.Quote(d.Hash) + "\n"
	}
	write(t, filepath.Join(codexHome, "config.toml"), cfg, 0o600)
}
