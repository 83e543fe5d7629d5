package cli

import (
	"flag"
	"strings"
	"time"
)

// FlagSet is a command's flags, each with the placeholder of its value and its help, in the order its
// help lists them (flag.FlagSet keeps no order of its own).
type FlagSet struct {
	set   *flag.FlagSet
	items []item
}

// item is one line of the flags' help: a flag, or a note among them.
type item struct {
	name, arg, help string // name "" for a note, its text in help
}

// NewFlagSet is an empty set of flags.
func NewFlagSet() *FlagSet {
	return &FlagSet{set: flag.NewFlagSet(prog, flag.ContinueOnError), items: make([]item, 0, 24)} // room for the longest list
}

func (f *FlagSet) add(name, arg, help string) {
	f.items = append(f.items, item{name: name, arg: arg, help: help})
}

// String is a string flag: --name ARG, value by default.
func (f *FlagSet) String(p *string, name, value, arg, help string) {
	f.set.StringVar(p, name, value, help)
	f.add(name, arg, help)
}

// Bool is a flag that is given or not: --name.
func (f *FlagSet) Bool(p *bool, name string, value bool, help string) {
	f.set.BoolVar(p, name, value, help)
	f.add(name, "", help)
}

// Int is an integer flag: --name ARG.
func (f *FlagSet) Int(p *int, name string, value int, arg, help string) {
	f.set.IntVar(p, name, value, help)
	f.add(name, arg, help)
}

// Int64 is a 64-bit integer flag: --name ARG.
func (f *FlagSet) Int64(p *int64, name string, value int64, arg, help string) {
	f.set.Int64Var(p, name, value, help)
	f.add(name, arg, help)
}

// Duration is a duration flag (10m, 1h30m): --name ARG.
func (f *FlagSet) Duration(p *time.Duration, name string, value time.Duration, arg, help string) {
	f.set.DurationVar(p, name, value, help)
	f.add(name, arg, help)
}

// Var is a flag of any flag.Value (a repeatable one, say): --name ARG.
func (f *FlagSet) Var(v flag.Value, name, arg, help string) {
	f.set.Var(v, name, help)
	f.add(name, arg, help)
}

// Note is a line of help among the flags, about those above it.
func (f *FlagSet) Note(text string) { f.items = append(f.items, item{help: text}) }

// Names are the flags' names, in order.
func (f *FlagSet) Names() []string {
	var out []string
	for _, it := range f.items {
		if it.name != "" {
			out = append(out, it.name)
		}
	}
	return out
}

// Parse parses args, flags before and after the arguments (which flag.Parse alone stops at), and returns
// the arguments.
func (f *FlagSet) Parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.set.Parse(args); err != nil {
			return nil, err
		}
		if f.set.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, f.set.Arg(0))
		args = f.set.Args()[1:]
	}
}

// StringList is a repeatable string flag's value: each use adds one.
type StringList []string

func (l *StringList) String() string     { return strings.Join(*l, ",") }
func (l *StringList) Set(v string) error { *l = append(*l, v); return nil }
