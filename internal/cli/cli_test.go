package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// testProgram is a program of two commands: "echo" (a flag of each kind, its arguments printed) and
// "raw" (its own help, its arguments unparsed).
func testProgram() (*Program, *echo) {
	e := &echo{}
	fs := NewFlagSet()
	fs.String(&e.word, "word", "hi", "W", "the word to print (default hi)")
	fs.Bool(&e.loud, "loud", false, "print it in capitals")
	fs.Int(&e.times, "times", 1, "N", "how many times")
	fs.Int64(&e.big, "big", 0, "N", "a large number, read and ignored")
	fs.Duration(&e.wait, "wait", time.Second, "D", "a duration, read and ignored")
	fs.Var(&e.tags, "tag", "T", "a tag (repeatable)")
	fs.Note("Tags are printed after the word.")
	echoCmd := &Command{Usage: []string{"[flags] ARG..."}, Short: "print a word and the arguments", Long: "One paragraph.\n\nAnother one.",
		Flags: fs, Run: e.run}
	raw := &Command{Short: "its arguments as they came", Help: "raw's own help\n",
		Run: func(_ context.Context, env Env) int {
			env.Out.Write([]byte(strings.Join(env.Args, "|") + "\n"))
			return 0
		}}
	return &Program{Intro: "A test program.", Default: "echo", Version: "1.2.3",
		Commands: []Entry{{"echo", func() *Command { return echoCmd }}, {"raw", func() *Command { return raw }}}}, e
}

type echo struct {
	word  string
	loud  bool
	times int
	big   int64
	wait  time.Duration
	tags  StringList
}

func (e *echo) run(_ context.Context, env Env) int {
	if len(env.Args) > 0 && env.Args[0] == "bad" {
		return env.UsageError("bad is no argument")
	}
	w := e.word
	if e.loud {
		w = strings.ToUpper(w)
	}
	env.Out.Write([]byte(strings.Repeat(w, e.times) + " " + strings.Join(e.tags, ",") + " " + strings.Join(env.Args, "|") + "\n"))
	return 0
}

func TestProgramRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string // what stdout is, and what stderr holds
	}{
		{"flags before and after the arguments", []string{"echo", "a", "--times", "2", "b", "--loud", "--tag", "x", "--tag", "y"}, 0, "HIHI x,y a|b\n", ""},
		{"the default command", []string{"--word", "yo"}, 0, "yo  \n", ""},
		{"nothing: the default command", nil, 0, "hi  \n", ""},
		{"a flag's -h", []string{"echo", "-h"}, 0, "", ""},
		{"an unknown flag", []string{"echo", "--nope"}, 2, "", "saverd echo: unknown flag --nope\nUsage:\n  saverd echo [flags] ARG..."},
		{"an unknown flag, one dash", []string{"echo", "-json"}, 2, "", "saverd echo: unknown flag --json\n"},
		{"an unknown flag of the default command", []string{"--json"}, 2, "", "saverd echo: unknown flag --json\n"},
		{"a bad value", []string{"echo", "--times", "x"}, 2, "", `saverd echo: --times: invalid value "x": parse error` + "\n"},
		{"a bad boolean", []string{"echo", "--loud=maybe"}, 2, "", `saverd echo: --loud: invalid boolean value "maybe": parse error` + "\n"},
		{"no value", []string{"echo", "--times"}, 2, "", "saverd echo: --times needs a value\n"},
		{"a usage error", []string{"echo", "bad"}, 2, "", "saverd echo: bad is no argument\nUsage:\n"},
		{"unknown command", []string{"nope"}, 2, "", "saverd: unknown command \"nope\"\n\nA test program."},
		{"version", []string{"version"}, 0, "saverd 1.2.3\n", ""},
		{"raw arguments", []string{"raw", "--x", "-h", "y"}, 0, "--x|-h|y\n", ""},
		{"help of a raw command", []string{"help", "raw"}, 0, "raw's own help\n", ""},
		{"help of nothing known", []string{"help", "nope"}, 2, "", "saverd help: unknown command \"nope\"\n\nA test program."},
		{"help of two commands", []string{"help", "echo", "raw"}, 2, "", `saverd help: want one command, got "echo raw"`},
		{"help of help", []string{"help", "help"}, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := testProgram()
			var out, errb bytes.Buffer
			code := p.Run(t.Context(), tc.args, IO{Out: &out, Err: &errb})
			if code != tc.code || (tc.out != "" && out.String() != tc.out) || !strings.Contains(errb.String(), tc.err) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, stderr with %q", code, out.String(), errb.String(), tc.code, tc.out, tc.err)
			}
		})
	}
}

// TestHelpIsTheCommand: `help NAME`, `NAME -h` and a usage error print the one help the command's
// value draws, which names every flag with its placeholder and help, in order, the notes among them.
func TestHelpIsTheCommand(t *testing.T) {
	p, _ := testProgram()
	want := `Usage:
  saverd echo [flags] ARG...
      print a word and the arguments

One paragraph.

Another one.

Flags:
  --word W           the word to print (default hi)
  --loud             print it in capitals
  --times N          how many times
  --big N            a large number, read and ignored
  --wait D           a duration, read and ignored
  --tag T            a tag (repeatable)
                     Tags are printed after the word.
`
	for _, args := range [][]string{{"help", "echo"}, {"echo", "-h"}, {"echo", "--help"}, {"-h", "x"}} {
		var out bytes.Buffer
		if code := p.Run(t.Context(), args, IO{Out: &out, Err: &out}); code != 0 || out.String() != want {
			t.Errorf("%q: exit %d\n%s\nwant\n%s", args, code, out.String(), want)
		}
	}
	if got := p.All()[0].Flags.Names(); !slices.Equal(got, []string{"word", "loud", "times", "big", "wait", "tag"}) {
		t.Errorf("names %q", got)
	}
	var over bytes.Buffer
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		over.Reset()
		if code := p.Run(t.Context(), args, IO{Out: &over, Err: &over}); code != 0 || !strings.Contains(over.String(), "  echo  print a word and the arguments\n  raw   its arguments as they came\n") {
			t.Errorf("%q: exit %d, overview\n%s", args, code, over.String())
		}
	}
}

// TestWrap: help lines stay within the width, broken between words, each opening with its indent; a
// long flag name puts its help on the next line.
func TestWrap(t *testing.T) {
	fs := NewFlagSet()
	var s string
	long := strings.Repeat("word ", 60)
	fs.String(&s, "a-flag-with-a-long-name", "", "VALUE", long)
	fs.String(&s, "short", "", "V", long)
	text := (&Command{Name: "w", Short: long, Long: long, Flags: fs}).HelpText()
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if len(line) > width || strings.HasSuffix(line, " ") {
			t.Errorf("line of %d columns (or with a trailing blank): %q", len(line), line)
		}
	}
	if !strings.Contains(text, "  --a-flag-with-a-long-name VALUE\n"+strings.Repeat(" ", flagCol)+"word word") ||
		!strings.Contains(text, "  --short V          word word") {
		t.Errorf("flags laid out as\n%s", text)
	}
}
