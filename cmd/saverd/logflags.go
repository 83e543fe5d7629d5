package main

import (
	"fmt"
	"strings"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/internal/timespan"
	"github.com/saverd/saverd/logset"
)

// logFlags are the flags that say where the agents' logs and the prices are, shared by `saverd sessions`,
// `blocks`, `report`, `impact` and `audit`.
type logFlags struct {
	prices  string
	noCache bool
	// dirs are the directories named for each harness's logs (--claude-dir, --gemini-dir, …), by harness.
	dirs map[harness.ID]*cli.StringList
}

// pricesHelp is --prices' help; when says when the command reads it.
func pricesHelp(when string) string {
	return when + "price overrides (default <config dir>/prices.json when it exists)"
}

// register registers the directory flag of every harness and --prices.
func (l *logFlags) register(fs *cli.FlagSet) {
	l.registerDirs(fs, "")
	fs.String(&l.prices, "prices", "", "FILE", pricesHelp(""))
	l.registerCache(fs, "")
}

// registerCache registers --no-cache; when says when the command reads the logs.
func (l *logFlags) registerCache(fs *cli.FlagSet, when string) {
	fs.Bool(&l.noCache, "no-cache", false, when+"read every log, not what <cache dir>/logs.cache kept of the logs unchanged since the last run")
}

// registerDirs registers the directory flag of every harness; when says when the command reads them.
func (l *logFlags) registerDirs(fs *cli.FlagSet, when string) {
	l.dirs = map[harness.ID]*cli.StringList{}
	for _, h := range logset.Harnesses {
		l.dirs[h.ID()] = &cli.StringList{}
		fs.Var(l.dirs[h.ID()], h.DirFlag(), "DIR", when+h.DirHelp())
	}
	fs.Note("Naming any harness's directory reads only the harnesses named.")
}

// set is the logs the flags name.
func (l *logFlags) set() logset.Set {
	s := logset.Set{Prices: l.prices, Dirs: map[harness.ID][]string{}}
	for id, d := range l.dirs {
		s.Dirs[id] = *d
	}
	if !l.noCache {
		s.Cache, _ = paths.LogCache() // no cache directory: no cache
	}
	return s
}

// harnessHelp is --harness' help.
func harnessHelp() string {
	var ids []string
	for _, id := range harness.IDs() {
		ids = append(ids, string(id))
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1] + " (qwen)"
}

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

// spanHelp says what a span's flags keep: since for --since ("sessions active"), until for --until
// ("sessions started"), zoned for what --tz also dates ("days, weeks and months").
type spanHelp struct{ since, until, zoned string }

// registerSpan registers the flags of a span of time: --since, --until and --tz.
func registerSpan(fs *cli.FlagSet, s *timespan.Span, h spanHelp) {
	fs.String(&s.Since, "since", "", "D", h.since+" since D: a date (2026-11-01 or 20261101, in --tz), RFC 3339, or an age (7d, 12h)")
	fs.String(&s.Until, "until", "", "D", h.until+" before D: a date (the whole day is in), RFC 3339, or an age")
	fs.String(&s.TZ, "tz", "", "ZONE", "the IANA time zone of dates and of "+h.zoned+" (default: local time)")
}

// formatFlag registers --format, "" by default: the command picks the table on a terminal.
func formatFlag(fs *cli.FlagSet, p *string, formats string) {
	fs.String(p, "format", "", "F", formats+" (default: table on a terminal, else json)")
}
