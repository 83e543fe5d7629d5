package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/logset"
)

// logFlags are the flags that say where the agents' logs and the prices are, shared by `saverd sessions`,
// `blocks`, `report`, `impact` and `audit`.
type logFlags struct {
	claudeDirs stringList
	codexDirs  stringList
	prices     string
	// others are the directories named for each harness package's logs (--gemini-dir, …), by harness.
	others map[harness.ID]*stringList
}

// logDirsHelp is the help of every harness's directory flag, as the usages list them.
var logDirsHelp = func() string {
	var b strings.Builder
	b.WriteString(`  --claude-dir DIR   Claude Code's config directory (repeatable; default $CLAUDE_CONFIG_DIR, else ~/.claude
                     and ~/.config/claude)
  --codex-dir DIR    Codex's home (repeatable; default $CODEX_HOME, else ~/.codex)
`)
	for _, h := range logset.Harnesses {
		fmt.Fprintf(&b, "  %-18s %s\n", "--"+h.DirFlag()+" DIR", h.DirHelp())
	}
	b.WriteString("                     Naming any harness's directory reads only the harnesses named.\n")
	return b.String()
}()

// harnessNames lists the harness ids --harness takes.
func harnessNames() string {
	var ids []string
	for _, id := range harness.IDs() {
		ids = append(ids, string(id))
	}
	return strings.Join(ids, ", ")
}

// parseHarness is a --harness value as the records name it (`qwen` is qwen-code), "" for none.
func parseHarness(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	id, ok := harness.Parse(name)
	if !ok {
		return "", fmt.Errorf("--harness: want one of %s, got %q", harnessNames(), name)
	}
	return string(id), nil
}

func (l *logFlags) register(fs *flag.FlagSet) {
	l.registerDirs(fs)
	fs.StringVar(&l.prices, "prices", "", "")
}

// registerDirs registers the directory flag of every harness.
func (l *logFlags) registerDirs(fs *flag.FlagSet) {
	fs.Var(&l.claudeDirs, "claude-dir", "")
	fs.Var(&l.codexDirs, "codex-dir", "")
	l.others = map[harness.ID]*stringList{}
	for _, h := range logset.Harnesses {
		l.others[h.ID()] = &stringList{}
		fs.Var(l.others[h.ID()], h.DirFlag(), "")
	}
}

// set is the logs the flags name.
func (l *logFlags) set() logset.Set {
	s := logset.Set{ClaudeDirs: l.claudeDirs, CodexDirs: l.codexDirs, Prices: l.prices, Others: map[harness.ID][]string{}}
	for id, d := range l.others {
		s.Others[id] = *d
	}
	return s
}

// registerSpan registers the flags of a span of time: --since, --until and --tz.
func registerSpan(fs *flag.FlagSet, s *timespan.Span) {
	fs.StringVar(&s.Since, "since", "", "")
	fs.StringVar(&s.Until, "until", "", "")
	fs.StringVar(&s.TZ, "tz", "", "")
}
