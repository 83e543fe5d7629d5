package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/internal/paths"
)

// installUsage is the help of install, uninstall and doctor; installCommands is its body, which the main
// usage text includes.
const installUsage = "Usage:\n" + installCommands

const installCommands = `  saverd install claude-code [--scope user|project|local] [--dir DIR] [--dry-run]
  saverd install codex [--scope user|project] [--dir DIR] [--dry-run]
  saverd uninstall claude-code|codex [--scope ...] [--dir DIR] [--dry-run]
      Merge saverd's hooks (and Claude Code's status line and /saver command file, Codex's hook trust
      and $saver skill) into the harness's settings, or remove exactly those entries; uninstall gives a
      file back byte for byte when nothing else changed in it, and stops the daemon when no harness
      uses it any more. --scope defaults to user; DIR to the working directory.
  saverd doctor [--dir DIR]
      Check the hooks, the daemon and the judge command; exit 1 when something needs fixing.
  saverd stop
      End the user's shared daemon (it flushes every session first); the next hook starts it again.
`

// runInstall is `saverd install` and `saverd uninstall`: 0 on success (nothing to change included),
// 2 on a usage error, 1 when a file cannot be read, parsed or written.
func runInstall(args []string, remove bool, stdout, stderr io.Writer) int {
	name := "install"
	if remove {
		name = "uninstall"
	}
	switch {
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprint(stdout, installUsage)
			return 0
		}
		fmt.Fprintf(stderr, "saverd %s: name the harness: claude-code or codex\n\n%s", name, installUsage)
		return 2
	case args[0] != install.ClaudeCode && args[0] != install.Codex:
		fmt.Fprintf(stderr, "saverd %s: unknown harness %q: want claude-code or codex\n", name, args[0])
		return 2
	}
	o := install.Options{Harness: args[0]}
	fs := flag.NewFlagSet("saverd "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, installUsage) }
	fs.StringVar(&o.Scope, "scope", "user", "")
	fs.StringVar(&o.Dir, "dir", "", "")
	fs.BoolVar(&o.DryRun, "dry-run", false, "")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	scopes := []string{"user", "project", "local"}
	if o.Harness == install.Codex {
		scopes = scopes[:2]
	}
	if !slices.Contains(scopes, o.Scope) {
		fmt.Fprintf(stderr, "saverd %s %s: --scope: want %s, got %q\n", name, o.Harness, strings.Join(scopes, " or "), o.Scope)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "saverd %s: unexpected argument %q\n", name, fs.Arg(0))
		return 2
	}
	var reports []install.FileReport
	var err error
	if remove {
		reports, err = install.Uninstall(o)
	} else {
		o.Bin, err = selfPath()
		if err == nil {
			reports, err = install.Install(o)
		}
	}
	printReports(stdout, reports, o.DryRun, remove)
	if err != nil {
		fmt.Fprintf(stderr, "saverd %s: %v\n", name, err)
		return 1
	}
	switch {
	case o.DryRun:
	case remove:
		stopUnused(o.Dir, stdout, stderr)
	default:
		nextSteps(stdout, o)
	}
	return 0
}

// stopUnused stops the daemon once no harness uses it here any more (no hooks at any scope for the
// project, no plugin): otherwise it would idle on until its idle exit.
func stopUnused(dir string, stdout, stderr io.Writer) {
	if install.InUse(dir) {
		return
	}
	pid, err := stopDaemon(paths.Socket(), stopWait)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "saverd uninstall: no harness uses saverd here any more, but %v\n", err)
	case pid != 0:
		fmt.Fprintf(stdout, "stopped the daemon (pid %d): no harness uses it here any more\n", pid)
	}
}

// nextSteps tells the person what to type now, and whether the binaries are on their PATH.
func nextSteps(w io.Writer, o install.Options) {
	fmt.Fprintln(w, "\nNext:")
	if o.Harness == install.ClaudeCode {
		fmt.Fprintln(w, "  Start Claude Code (claude) and work as always; the first hook starts saverd's daemon.")
		fmt.Fprintln(w, "  Type /saver for the pane, /saver check to ask the judge, /saver fix 1 to carry a fix into later prompts.")
		fmt.Fprintln(w, "  The status line shows saverd's band. A session already open picks up the hooks when restarted.")
	} else {
		fmt.Fprintln(w, "  Start Codex (codex) and work as always; the first hook starts saverd's daemon.")
		fmt.Fprintln(w, "  Codex has no custom slash commands: type $saver for the pane, $saver check, $saver fix 1")
		fmt.Fprintln(w, "  (or the line with a leading space: \" /saver check\"). Typed /saver, Codex answers Unrecognized command.")
	}
	fmt.Fprintln(w, "  saverd doctor checks the installation; saverd uninstall "+o.Harness+" takes it out again.")
	dir := filepath.Dir(o.Bin)
	if !onPath(dir) {
		fmt.Fprintf(w, "  note: %s is not on your PATH. The hooks name it in full, so they work; to type saverd yourself add it:\n", dir)
		fmt.Fprintf(w, "        export PATH=\"$PATH:%s\"  (go install puts binaries in $(go env GOPATH)/bin)\n", dir)
	}
}

// onPath reports whether dir is one of PATH's directories.
func onPath(dir string) bool {
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if p == "" {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			if r, err := filepath.EvalSymlinks(a); err == nil {
				a = r
			}
			if a == dir {
				return true
			}
		}
	}
	return false
}

// selfPath is the absolute path of the running binary, symlinks resolved, which the hooks will run.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("the path of this saverd binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	// The small hook binary beside this one (go install ./cmd/... puts it there) runs the same hook in
	// about a third of the start-up time: a hook is one exec per event.
	if hook := filepath.Join(filepath.Dir(exe), "saverd-hook"); isExecutable(hook) {
		return hook, nil
	}
	return exe, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

func printReports(w io.Writer, reports []install.FileReport, dry, remove bool) {
	for _, r := range reports {
		e := r.Edit
		switch {
		case len(e.Changes) == 0 && remove:
			fmt.Fprintf(w, "%s: nothing of saverd's there, nothing changed\n", r.Path)
		case len(e.Changes) == 0:
			fmt.Fprintf(w, "%s: already up to date, nothing changed\n", r.Path)
		case dry:
			fmt.Fprintf(w, "%s: would change (dry run, nothing written):\n", r.Path)
		default:
			fmt.Fprintf(w, "%s:\n", r.Path)
		}
		for _, c := range e.Changes {
			fmt.Fprintf(w, "  %s\n", c)
		}
		for _, n := range e.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
}

// runDoctor is `saverd doctor`: one line per check, 0 when all is well, 1 when something needs fixing.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o := install.DoctorOptions{Socket: paths.Socket(), DaemonWait: time.Second, VersionWait: 5 * time.Second}
	// The judge commands the daemon would fork through: $SAVERD_JUDGE_CMD, else the config file's.
	cfg, err := forkcmd.Load()
	o.JudgeCmd, o.CodexJudgeCmd, o.JudgeSource, o.JudgeErr = cfg.Claude, cfg.Codex, cfg.Source, err
	fs := flag.NewFlagSet("saverd doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, installUsage) }
	fs.StringVar(&o.Dir, "dir", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	code := 0
	for _, f := range install.Doctor(ctx, o) {
		mark := "ok  "
		switch f.Level {
		case install.Note:
			mark = "--  "
		case install.Fix:
			mark, code = "FIX ", 1
		}
		fmt.Fprintln(stdout, mark+f.Text)
	}
	return code
}
