// Package cli is saverd's commands as values: each Command carries its name, its synopsis, what it does
// and its flags with their help, written once, and every help text a person reads — `saverd help`,
// `saverd help COMMAND`, `saverd COMMAND -h`, the help after a usage error — is drawn from them. Flags are
// the standard flag package's, parsed before and after the arguments (`saverd audit FILE --format json`).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// prog is the program every command belongs to, as its help and its errors name it.
const prog = "saverd"

// Command is one subcommand.
type Command struct {
	// Name is the name its program's Entry gives it.
	Name string
	// Usage are the forms of the command line after "saverd NAME" (nil: "[flags]").
	Usage []string
	// Short says what it does in one line: the overview's, and the first of its own help.
	Short string
	// Long says more, in paragraphs (a blank line between them), wrapped to the help's width.
	Long string
	// Flags are its flags, in the order its help lists them; nil: none.
	Flags *FlagSet
	// Help, when set, is its whole help as the package that parses its arguments writes it (the hook
	// client, which the small hook binary shares); its arguments then reach Run unparsed.
	Help string
	// Run runs it once its flags are parsed; its result is the process's exit code.
	Run func(ctx context.Context, e Env) int
}

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// Env is one run of a command: the arguments its flags left (all of them for a command with Help of its
// own) and its input and outputs.
type Env struct {
	IO
	Args []string
	cmd  *Command
}

// UsageError says what was wrong with the command line (msg; "" when flag said it already), then the
// command's help, on the error output; it is exit code 2.
func (e Env) UsageError(msg string) int {
	if msg != "" {
		fmt.Fprintf(e.Err, "%s %s: %s\n", prog, e.cmd.Name, msg)
	}
	fmt.Fprint(e.Err, e.cmd.HelpText())
	return 2
}

// NoArgs is the usage error of a command that takes no argument, when it was given one; ok when not.
func (e Env) NoArgs() (code int, ok bool) {
	if len(e.Args) > 0 {
		return e.UsageError(fmt.Sprintf("unexpected argument %q", e.Args[0])), false
	}
	return 0, true
}

// Main parses args against the command's flags and runs it: -h prints its help and is 0, a flag that
// does not parse is a usage error.
func (c *Command) Main(ctx context.Context, args []string, o IO) int {
	e := Env{IO: o, Args: args, cmd: c}
	if c.Help != "" {
		return c.Run(ctx, e)
	}
	fs := c.Flags
	if fs == nil {
		fs = NewFlagSet()
	}
	fs.set.SetOutput(io.Discard) // flag's own words (-json, "flag provided but not defined") are not ours
	fs.set.Usage = func() {}
	pos, err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(o.Out, c.HelpText())
		return 0
	}
	if err != nil {
		return e.UsageError(flagError(err))
	}
	e.Args = pos
	return c.Run(ctx, e)
}

// Program is the commands under one binary.
type Program struct {
	// Intro is the overview's first paragraph: what the program is.
	Intro string
	// Default is the command run when the command line starts with a flag or is empty.
	Default  string
	Version  string
	Commands []Entry
}

// Entry is one command of a program: its name, and how to make it. A command is made anew for each run,
// so that no flag's value outlives it, and only the one run is made (the overview makes them all).
type Entry struct {
	Name string
	New  func() *Command
}

// All is every command, made, in the program's order.
func (p *Program) All() []*Command {
	out := make([]*Command, 0, len(p.Commands))
	for _, e := range p.Commands {
		out = append(out, p.make(e))
	}
	return out
}

func (p *Program) make(e Entry) *Command {
	c := e.New()
	c.Name = e.Name
	return c
}

// Run runs the command args names (help and version included) and is the process's exit code.
func (p *Program) Run(ctx context.Context, args []string, o IO) int {
	name := p.Default
	switch {
	case len(args) > 0 && args[0] != "" && args[0][0] != '-':
		name, args = args[0], args[1:]
	case len(args) == 1 && isHelp(args[0]):
		name, args = "help", nil // the overview, not only the flags of the default command
	}
	switch name {
	case "help":
		return p.help(args, o)
	case "version":
		fmt.Fprintln(o.Out, prog, p.Version)
		return 0
	}
	if c := p.find(name); c != nil {
		return c.Main(ctx, args, o)
	}
	fmt.Fprintf(o.Err, "%s: unknown command %q\n\n%s", prog, name, p.Overview())
	return 2
}

// help is `saverd help [COMMAND]`.
func (p *Program) help(args []string, o IO) int {
	if len(args) == 0 {
		fmt.Fprint(o.Out, p.Overview())
		return 0
	}
	c := p.find(args[0])
	switch {
	case c == nil && args[0] != "help" && args[0] != "version":
		fmt.Fprintf(o.Err, "%s help: unknown command %q\n\n%s", prog, args[0], p.Overview())
	case len(args) > 1:
		fmt.Fprintf(o.Err, "%s help: want one command, got %q\n\n%s", prog, strings.Join(args, " "), p.Overview())
	case c == nil:
		fmt.Fprint(o.Out, p.Overview()) // help and version are the overview's own
		return 0
	default:
		fmt.Fprint(o.Out, c.HelpText())
		return 0
	}
	return 2
}

func (p *Program) find(name string) *Command {
	for _, e := range p.Commands {
		if e.Name == name {
			return p.make(e)
		}
	}
	return nil
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// flagError is what the flag package's parse error says, in the words saverd's other usage errors use:
// flags spelled --name, "unknown flag" for one the command does not take.
func flagError(err error) string {
	msg := err.Error()
	for _, r := range []struct{ prefix, form string }{
		{"flag provided but not defined: -", "unknown flag --%s"},
		{"flag needs an argument: -", "--%s needs a value"},
	} {
		if name, ok := strings.CutPrefix(msg, r.prefix); ok {
			return fmt.Sprintf(r.form, strings.TrimLeft(name, "-"))
		}
	}
	// invalid value "x" for flag -times: parse error; invalid boolean value "x" for -loud: parse error
	if rest, ok := strings.CutPrefix(msg, "invalid "); ok {
		for _, sep := range []string{" for flag -", " for -"} {
			if what, after, ok := strings.Cut(rest, sep); ok {
				name, why, _ := strings.Cut(after, ": ")
				return fmt.Sprintf("--%s: invalid %s: %s", strings.TrimLeft(name, "-"), what, why)
			}
		}
	}
	return msg
}
