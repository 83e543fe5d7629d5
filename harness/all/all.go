// Package all lists the harness packages saverd reads and answers. Adding a harness is its package (and
// its test support) and one line here; the commands take their flags, help and readers from this list,
// the daemon its live harnesses. Only saverd links it: harness/opencode brings an SQLite reader that
// saverd-hook must never carry.
package all

import (
	"strings"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/harness/gemini"
	"github.com/saverd/saverd/harness/opencode"
	"github.com/saverd/saverd/harness/qwen"
	"github.com/saverd/saverd/install"
)

// Logs is the log readers of every harness, in the order they are listed to a person.
func Logs() []harness.Logs {
	return []harness.Logs{claude.Harness{}, codex.Harness{}, gemini.Logs{}, opencode.Logs{}, qwen.Logs{}}
}

// Live is the harnesses whose hooks saverd answers.
func Live() []harness.Live { return []harness.Live{claude.Harness{}, codex.Harness{}} }

// LiveOf is the harness id names among Live.
func LiveOf(id harness.ID) (harness.Live, bool) {
	for _, h := range Live() {
		if h.ID() == id {
			return h, true
		}
	}
	return nil, false
}

// Fork is the client a judge's fork of a session of harness id runs: a live harness's own ("" is
// harness.Hooked's, as a hook that names none), else forkcmd.Configured.
func Fork(id harness.ID) forkcmd.Client {
	if id == "" {
		id = harness.Hooked
	}
	if h, ok := LiveOf(id); ok {
		return h
	}
	return forkcmd.Configured{}
}

// LiveNames lists the live harnesses' ids for a message: "claude-code or codex".
func LiveNames() string {
	var names []string
	for _, h := range Live() {
		names = append(names, string(h.ID()))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Doctor is every live harness as doctor checks it, each with the judge command cfg configures for its
// sessions.
func Doctor(cfg forkcmd.Config) []install.Named {
	var out []install.Named
	for _, h := range Live() {
		out = append(out, install.Named{ID: string(h.ID()), Name: h.Name(), Command: h.Command(), JudgeLine: h.ForkLine(cfg), Target: h})
	}
	return out
}

// Targets is every live harness as install meets it.
func Targets() []install.Target {
	var out []install.Target
	for _, h := range Live() {
		out = append(out, h)
	}
	return out
}

// Owner is the harness whose log the file at path is, as a person named it: the harness whose Owns says
// so, else Claude Code's (fallback).
func Owner(path string) (harness.Logs, bool) {
	for _, h := range Logs() {
		if h != fallback && h.Owns(path) {
			return h, true
		}
	}
	if fallback.Owns(path) {
		return fallback, true
	}
	return nil, false
}

// fallback owns a file no other harness does: Claude Code's transcripts carry no mark of their own.
var fallback harness.Logs = claude.Harness{}
