package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
)

// installCmd is `saverd install` and `saverd uninstall`: 0 on success (nothing to change included), 2 on
// a usage error, 1 when a file cannot be read, parsed or written.
type installCmd struct {
	remove bool
	o      install.Options
}

func newInstallCmd(remove bool) *cli.Command {
	c := &installCmd{remove: remove}
	fs := cli.NewFlagSet()
	fs.String(&c.o.Scope, "scope", "user", "S", "user, project or local (Codex: user or project; default user)")
	fs.String(&c.o.Dir, "dir", "", "DIR", "the project a project or local scope is in (default: the working directory)")
	fs.Bool(&c.o.DryRun, "dry-run", false, "print the changes and write nothing")
	cmd := &cli.Command{Usage: []string{"claude-code|codex [flags]"},
		Short: "merge saverd's hooks into Claude Code's or Codex's settings",
		Long: "With them Claude Code's status line and /saver command file, Codex's hook trust and $saver skill. Every other " +
			"setting and foreign hook is kept, byte for byte, in the file's own layout.",
		Flags: fs, Run: c.run}
	if remove {
		cmd.Short = "remove exactly the entries install made"
		cmd.Long = "A file is given back byte for byte when nothing else changed in it, and the daemon is stopped when no " +
			"harness uses it any more (a project or local uninstall leaves it running: it serves the other projects too)."
	}
	return cmd
}

func (c *installCmd) run(_ context.Context, e cli.Env) int {
	name := "install"
	if c.remove {
		name = "uninstall"
	}
	switch {
	case len(e.Args) == 0:
		return e.UsageError("name the harness: " + all.LiveNames())
	case len(e.Args) > 1:
		fmt.Fprintf(e.Err, "saverd %s: unexpected argument %q\n", name, e.Args[1])
		return 2
	}
	h, ok := all.LiveOf(harness.ID(e.Args[0]))
	if !ok {
		fmt.Fprintf(e.Err, "saverd %s: unknown harness %q: want %s\n", name, e.Args[0], all.LiveNames())
		return 2
	}
	o := c.o
	o.Target = h
	if scopes := h.Scopes(); !slices.Contains(scopes, o.Scope) {
		fmt.Fprintf(e.Err, "saverd %s %s: --scope: want %s, got %q\n", name, h.ID(), strings.Join(scopes, " or "), o.Scope)
		return 2
	}
	var reports []install.FileReport
	var err error
	if c.remove {
		reports, err = install.Uninstall(o)
	} else {
		o.Bin, err = selfPath()
		if err == nil {
			reports, err = install.Install(o)
		}
	}
	printReports(e.Out, reports, o.DryRun, c.remove)
	if err != nil {
		fmt.Fprintf(e.Err, "saverd %s: %v\n", name, err)
		return 1
	}
	switch {
	case o.DryRun:
	case c.remove:
		stopUnused(o, changed(reports), e.Out, e.Err)
	default:
		if err := unmarkUninstalled(); err != nil {
			fmt.Fprintf(e.Err, "saverd %s: %v (hooks will not start the daemon)\n", name, err)
			return 1
		}
		nextSteps(e.Out, h, o.Bin)
	}
	return 0
}

// stopUnused stops the daemon, and leaves the uninstall's mark, once an uninstall that changed something
// leaves no harness using it: no hooks at the user scope or this project's, no plugin. One daemon serves
// every project of the user, and an uninstall cannot see the other projects' settings, so a project or
// local uninstall leaves it running (saverd stop ends it); otherwise it would idle on until its idle exit.
func stopUnused(o install.Options, changed bool, stdout, stderr io.Writer) {
	if !changed {
		return
	}
	sock := paths.Socket()
	if o.Scope != "user" {
		if daemonAnswers(sock) {
			fmt.Fprintf(stdout, "the daemon keeps running: it serves other projects too (saverd stop ends it)\n")
		}
		return
	}
	if install.InUse(all.Targets(), o.Dir) {
		return
	}
	if err := markUninstalled(time.Now()); err != nil {
		fmt.Fprintf(stderr, "saverd uninstall: %v (a client still running saverd's hooks from memory may start the daemon again)\n", err)
	}
	pid, err := stopDaemon(sock, stopWait)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "saverd uninstall: no harness uses saverd any more, but %v\n", err)
	case pid != 0:
		fmt.Fprintf(stdout, "stopped the daemon (pid %d): no harness uses it any more\n", pid)
	}
}

// changed reports whether an install or uninstall changed any file.
func changed(reports []install.FileReport) bool {
	for _, r := range reports {
		if len(r.Edit.Changes) > 0 {
			return true
		}
	}
	return false
}

// markUninstalled leaves paths.Uninstalled: before the daemon is stopped, so a hook that fires after it
// already finds the mark and starts no daemon.
func markUninstalled(at time.Time) error {
	mark, err := paths.Uninstalled()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(mark), 0o700); err != nil {
		return fmt.Errorf("mark the uninstall: %w", err)
	}
	text := "saverd was uninstalled at " + at.UTC().Format(time.RFC3339) + ": a hook whose settings name none of saverd's hooks starts no daemon; saverd install takes this file away\n"
	if err := atomicfile.Write(mark, []byte(text), 0o600); err != nil {
		return fmt.Errorf("mark the uninstall: %w", err)
	}
	return nil
}

// unmarkUninstalled takes the uninstall's mark away: hooks start the daemon again.
func unmarkUninstalled() error {
	mark, err := paths.Uninstalled()
	if err != nil {
		return err
	}
	if err := os.Remove(mark); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("take the uninstall's mark away: %w", err)
	}
	return nil
}

// nextSteps tells the person what to type now, and whether the binaries are on their PATH.
func nextSteps(w io.Writer, h harness.Live, bin string) {
	fmt.Fprintln(w, "\nNext:")
	for _, line := range h.NextSteps() {
		fmt.Fprintln(w, "  "+line)
	}
	fmt.Fprintln(w, "  saverd doctor checks the installation; saverd uninstall "+string(h.ID())+" takes it out again.")
	dir := filepath.Dir(bin)
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

// doctorCmd is `saverd doctor`: one line per check, 0 when all is well, 1 when something needs fixing.
type doctorCmd struct{ dir string }

func newDoctorCmd() *cli.Command {
	c := &doctorCmd{}
	fs := cli.NewFlagSet()
	fs.String(&c.dir, "dir", "", "DIR", "the project whose project and local scopes are checked (default: the working directory)")
	return &cli.Command{Short: "check the hooks, the daemon and the judge command; exit 1 when something needs fixing",
		Flags: fs, Run: c.run}
}

func (c *doctorCmd) run(ctx context.Context, e cli.Env) int {
	if code, ok := e.NoArgs(); !ok {
		return code
	}
	o := install.DoctorOptions{Socket: paths.Socket(), DaemonWait: time.Second, VersionWait: 5 * time.Second, Dir: c.dir}
	o.UninstallMark, _ = paths.Uninstalled() // no state directory: no mark to find
	// The judge commands the daemon would fork through: $SAVERD_JUDGE_CMD, else the config file's.
	cfg, err := forkcmd.Load()
	o.Harnesses, o.JudgeSource, o.JudgeErr = all.Doctor(cfg), cfg.Source, err
	code := 0
	for _, f := range install.Doctor(ctx, o) {
		mark := "ok  "
		switch f.Level {
		case install.Note:
			mark = "--  "
		case install.Fix:
			mark, code = "FIX ", 1
		}
		fmt.Fprintln(e.Out, mark+f.Text)
	}
	return code
}
