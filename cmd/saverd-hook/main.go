// Command saverd-hook is `saverd hook` and `saverd statusline` in a binary of their own: Claude Code
// and Codex exec a hook once per event, and this one links nothing of the daemon, so it starts in about
// the time a trivial binary does. `saverd install` writes it into the hooks when it sits beside saverd.
//
// Usage: saverd-hook hook [--harness claude-code|codex] [--plugin] EVENT, or saverd-hook statusline
// (hookcmd.Usage says more).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/saverd/saverd/internal/hookcmd"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "statusline" {
		os.Exit(hookcmd.Statusline(args[1:], os.Stdin, os.Stdout))
	}
	if len(args) == 0 || args[0] != "hook" {
		fmt.Fprint(os.Stderr, hookcmd.Usage) // the hook client's one help, which `saverd help hook` prints too
		os.Exit(2)
	}
	os.Exit(hookcmd.Run(args[1:], os.Stdin, os.Stdout, daemon()))
}

// daemon is the saverd binary beside this one (what `go install ./cmd/...` puts there), else saverd on
// PATH; "" when there is none, and then a hook with no daemon running prints nothing and says why in
// hook.log.
func daemon() string {
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), "saverd"); isExec(p) {
			return p
		}
	}
	if p, err := exec.LookPath("saverd"); err == nil {
		return p
	}
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
