package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runBin runs the built saverd with args and env added to a sandboxed environment.
func runBin(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestInstallCommands(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	fakeBin := filepath.Join(home, "bin")
	if err := os.MkdirAll(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fakeBin, "claude"), []byte("#!/bin/sh\necho '2.1.328 (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, "claude"), "CODEX_HOME=" + filepath.Join(home, "codex"),
		"SAVERD_SOCKET=" + filepath.Join(home, "run", "none.sock"), "SAVERD_JUDGE_CMD=", "PATH=" + fakeBin}
	settings := filepath.Join(proj, ".claude", "settings.json")
	self, _ := filepath.EvalSymlinks(binPath)

	for _, c := range []struct {
		name    string
		args    []string
		code    int
		stdout  []string
		stderr  string
		fileHas string // the settings file must contain this
		noFile  bool   // and there must be none (not yet, or no longer)
	}{
		{name: "doctor before", args: []string{"doctor", "--dir", proj}, code: 1, stdout: []string{"FIX no saverd hooks installed", "--  daemon: no daemon running"}}, // no harness installed: no judge to check
		{name: "dry run", args: []string{"install", "claude-code", "--scope", "project", "--dir", proj, "--dry-run"}, stdout: []string{"would change (dry run, nothing written)", "added SessionStart: " + self + " hook SessionStart (timeout 10 s)"}, noFile: true},
		{name: "install", args: []string{"install", "claude-code", "--scope", "project", "--dir", proj}, stdout: []string{settings + ":", "added UserPromptSubmit: " + self + " hook UserPromptSubmit (timeout 130 s)", "added statusLine: " + self + " statusline", "added the /saver command file", "Next:", "/saver check", "is not on your PATH", "export PATH="}, fileHas: self + " hook PreToolUse"},
		{name: "again", args: []string{"install", "claude-code", "--scope", "project", "--dir", proj}, stdout: []string{"already up to date, nothing changed"}, fileHas: self + " hook Stop"},
		{name: "doctor after", args: []string{"doctor", "--dir", proj}, code: 0, stdout: []string{"ok  claude-code project (" + settings + "): hooks installed for all 12 events", "(2.1.328 (Claude Code))"}},
		{name: "uninstall", args: []string{"uninstall", "claude-code", "--scope", "project", "--dir", proj}, stdout: []string{"removed SessionEnd: " + self + " hook SessionEnd", "removed statusLine"}, noFile: true}, // nothing else was in it
		{name: "no harness", args: []string{"install"}, code: 2, stderr: "name the harness"},
		{name: "unknown harness", args: []string{"uninstall", "cursor"}, code: 2, stderr: `unknown harness "cursor": want claude-code or codex`},
		{name: "unknown scope", args: []string{"install", "codex", "--scope", "local"}, code: 2, stderr: `--scope: want user or project, got "local"`},
		{name: "stray argument", args: []string{"install", "codex", "extra"}, code: 2, stderr: `unexpected argument "extra"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runBin(t, env, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s%s", code, c.code, stdout, stderr)
			}
			for _, w := range c.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, stderr)
			}
			b, err := os.ReadFile(settings)
			if c.noFile && err == nil {
				t.Errorf("%s is there:\n%s", settings, b)
			}
			if c.fileHas != "" && !strings.Contains(string(b), c.fileHas) {
				t.Errorf("%s lacks %q:\n%s", settings, c.fileHas, b)
			}
		})
	}

	t.Run("a file that does not parse", func(t *testing.T) {
		bad := "{\n  // mine\n  \"model\": \"opus\"\n}\n"
		if err := os.WriteFile(settings, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runBin(t, env, "install", "claude-code", "--scope", "project", "--dir", proj)
		if code != 1 || !strings.Contains(stderr, settings+" is not valid JSON") || !strings.Contains(stderr, "not changed") {
			t.Errorf("exit %d, stderr %q; want 1 naming the file", code, stderr)
		}
		if b, _ := os.ReadFile(settings); string(b) != bad {
			t.Error("the file was changed")
		}
	})
}

// TestStopAndUninstallStopTheDaemon: `saverd stop` ends the user's daemon (and says when none runs);
// uninstall ends it once no harness here uses it any more.
func TestStopAndUninstallStopTheDaemon(t *testing.T) {
	home := t.TempDir()
	sock := filepath.Join(home, "run", "saverd.sock")
	env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, "claude"), "CODEX_HOME=" + filepath.Join(home, "codex"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "SAVERD_SOCKET=" + sock, "GORACE=atexit_sleep_ms=0"}
	start := func() *exec.Cmd {
		d := exec.Command(binPath, "serve", "--listen", sock, "--idle-exit", "0")
		d.Env = append(os.Environ(), env...)
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Process.Kill(); d.Wait() })
		for i := 0; i < 300; i++ {
			if _, err := os.Stat(sock); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		return d
	}
	waitGone := func(d *exec.Cmd) {
		done := make(chan error, 1)
		go func() { done <- d.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the daemon did not exit")
		}
	}

	d := start()
	stdout, stderr, code := runBin(t, env, "stop")
	if code != 0 || !strings.Contains(stdout, "stopped the daemon at "+sock) {
		t.Fatalf("stop: exit %d\n%s%s", code, stdout, stderr)
	}
	waitGone(d)
	if stdout, _, code := runBin(t, env, "stop"); code != 0 || !strings.Contains(stdout, "no daemon running") {
		t.Errorf("stop with none running: exit %d, %q", code, stdout)
	}

	if _, stderr, code := runBin(t, env, "install", "claude-code"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := runBin(t, env, "install", "codex"); code != 0 {
		t.Fatal(stderr)
	}
	d = start()
	// Codex still uses it: the daemon stays.
	if stdout, _, _ := runBin(t, env, "uninstall", "claude-code"); strings.Contains(stdout, "stopped the daemon") {
		t.Fatalf("uninstall stopped the daemon while Codex's hooks remain:\n%s", stdout)
	}
	stdout, stderr, code = runBin(t, env, "uninstall", "codex")
	if code != 0 || !strings.Contains(stdout, "stopped the daemon (pid ") {
		t.Fatalf("the last uninstall: exit %d\n%s%s", code, stdout, stderr)
	}
	waitGone(d)
}

// TestProjectUninstallKeepsTheSharedDaemon: one daemon serves every project of the user, so a project
// uninstall in one repository leaves it (and writes no uninstall mark) while another repository's hooks
// still use it; an uninstall that changed nothing writes no mark either.
func TestProjectUninstallKeepsTheSharedDaemon(t *testing.T) {
	tests := []struct {
		name      string
		setup     [][]string // commands run before the daemon starts; {dir} is replaced by repo A's, {other} by B's
		uninstall []string
		wantOut   string // a line the uninstall prints
	}{
		{name: "project scope, another project installed",
			setup: [][]string{{"install", "claude-code", "--scope", "project", "--dir", "{dir}"},
				{"install", "claude-code", "--scope", "project", "--dir", "{other}"}},
			uninstall: []string{"uninstall", "claude-code", "--scope", "project", "--dir", "{dir}"},
			wantOut:   "the daemon keeps running: it serves other projects too (saverd stop ends it)"},
		{name: "local scope",
			setup:     [][]string{{"install", "claude-code", "--scope", "local", "--dir", "{dir}"}},
			uninstall: []string{"uninstall", "claude-code", "--scope", "local", "--dir", "{dir}"},
			wantOut:   "the daemon keeps running"},
		{name: "nothing installed", uninstall: []string{"uninstall", "claude-code"}, wantOut: "nothing changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			sock := filepath.Join(home, "run", "saverd.sock")
			env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, "claude"), "CODEX_HOME=" + filepath.Join(home, "codex"),
				"XDG_STATE_HOME=" + filepath.Join(home, "state"), "SAVERD_SOCKET=" + sock, "GORACE=atexit_sleep_ms=0"}
			dirs := strings.NewReplacer("{dir}", filepath.Join(home, "a"), "{other}", filepath.Join(home, "b"))
			args := func(a []string) []string {
				out := make([]string, len(a))
				for i, s := range a {
					out[i] = dirs.Replace(s)
				}
				return out
			}
			for _, a := range [][]string{{"{dir}"}, {"{other}"}} {
				if err := os.MkdirAll(args(a)[0], 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, a := range tt.setup {
				if _, stderr, code := runBin(t, env, args(a)...); code != 0 {
					t.Fatalf("%v: exit %d: %s", a, code, stderr)
				}
			}
			d := exec.Command(binPath, "serve", "--listen", sock, "--idle-exit", "0")
			d.Env = append(os.Environ(), env...)
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Process.Kill(); d.Wait() })
			for i := 0; i < 300 && !daemonAnswers(sock); i++ {
				time.Sleep(10 * time.Millisecond)
			}
			stdout, stderr, code := runBin(t, env, args(tt.uninstall)...)
			if code != 0 || !strings.Contains(stdout, tt.wantOut) || strings.Contains(stdout, "stopped the daemon") {
				t.Fatalf("%v: exit %d; want %q and no stop\n%s%s", tt.uninstall, code, tt.wantOut, stdout, stderr)
			}
			if !daemonAnswers(sock) {
				t.Error("the uninstall stopped the shared daemon")
			}
			if _, err := os.Stat(filepath.Join(home, "state", "saverd", "uninstalled")); err == nil {
				t.Error("the uninstall wrote the uninstall's mark")
			}
		})
	}
}

// TestUninstallMarkStartsNoDaemon: a Codex that loaded saverd's hooks before `saverd uninstall` still runs
// them; they start no daemon, and a command typed says why. `saverd install` takes the mark away, and the
// next hook starts the daemon again.
func TestUninstallMarkStartsNoDaemon(t *testing.T) {
	home := t.TempDir()
	sock := filepath.Join(home, "run", "saverd.sock")
	env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, "claude"), "CODEX_HOME=" + filepath.Join(home, "codex"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "SAVERD_SOCKET=" + sock, "GORACE=atexit_sleep_ms=0"}
	for _, args := range [][]string{{"install", "codex"}, {"uninstall", "codex"}} {
		if _, stderr, code := runBin(t, env, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	hook := func() string {
		t.Helper()
		cmd := exec.Command(binPath, "hook", "--harness", "codex", "UserPromptSubmit")
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"$saver check"}`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook: %v", err)
		}
		return string(out)
	}
	if out := hook(); !strings.Contains(out, "saverd was uninstalled") || !strings.Contains(out, `"decision":"block"`) {
		t.Errorf("a hook after the uninstall answered %q; want a block saying saverd was uninstalled", out)
	}
	if _, err := os.Stat(sock); err == nil {
		t.Fatal("a hook after the uninstall started a daemon")
	}
	// doctor does not promise that the first hook starts one.
	if stdout, _, _ := runBin(t, env, "doctor"); !strings.Contains(stdout, "hooks start none: saverd was uninstalled") || strings.Contains(stdout, "the first hook starts one") {
		t.Errorf("doctor after the uninstall:\n%s", stdout)
	}
	// Installed again: the mark is gone, and the next hook starts the daemon.
	if _, stderr, code := runBin(t, env, "install", "codex"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "state", "saverd", "uninstalled")); err == nil {
		t.Error("install left the uninstall's mark")
	}
	t.Cleanup(func() { runBin(t, env, "stop") })
	if out := hook(); !strings.Contains(out, `"decision":"block"`) || strings.Contains(out, "uninstalled") || strings.Contains(out, "did not answer") {
		t.Errorf("a hook after the install answered %q; want the daemon's answer", out)
	}
}

// TestHelpAndFlagWords: a command line saverd cannot read is answered in its own words, naming what was
// wrong, for every command alike.
func TestHelpAndFlagWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the first line of stderr
		then string // and what follows it: the command's help, or the list of commands
	}{
		{[]string{"doctor", "--json"}, "saverd doctor: unknown flag --json", "Usage:\n  saverd doctor [flags]"},
		{[]string{"sessions", "-bogus"}, "saverd sessions: unknown flag --bogus", "Usage:\n  saverd sessions [flags]"},
		{[]string{"install", "--scope"}, "saverd install: --scope needs a value", "Usage:\n  saverd install claude-code|codex"},
		{[]string{"help", "nosuch"}, `saverd help: unknown command "nosuch"`, "  uninstall "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(t.Context(), tc.args, strings.NewReader(""), &out, &errb)
			first, rest, _ := strings.Cut(errb.String(), "\n")
			if code != 2 || first != tc.want {
				t.Errorf("exit %d, stderr %q; want 2 and first line %q", code, errb.String(), tc.want)
			}
			if !strings.Contains(rest, tc.then) {
				t.Errorf("stderr after the error %q; want %q", rest, tc.then)
			}
		})
	}
}
