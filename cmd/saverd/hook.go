package main

import (
	"io"
	"os"

	"github.com/saverd/saverd/internal/hookcmd"
)

// runHook is `saverd hook [--harness claude-code|codex] EVENT`; a daemon it must start is this binary.
func runHook(args []string, stdin io.Reader, stdout io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		self = ""
	}
	return hookcmd.Run(args, stdin, stdout, self)
}

func runStatusline(args []string, stdin io.Reader, stdout io.Writer) int {
	return hookcmd.Statusline(args, stdin, stdout)
}
