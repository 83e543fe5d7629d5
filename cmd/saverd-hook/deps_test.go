package main

import (
	"maps"
	"slices"
	"testing"

	"github.com/saverd/saverd/internal/deptest"
)

const module = "github.com/saverd/saverd"

// daemonOnly are what the hook must never link, each with why: the daemon's packages (a hook that
// links them starts as slowly as the daemon, which is what saverd-hook exists to avoid), its logger
// and goroutine helpers, and the JSON decoders the hook does not need (it forwards the payload as it
// came, checking it with encoding/json).
var daemonOnly = []rule{
	{module + "/handlers", "the daemon's methods"},
	{module + "/session", "the daemon's sessions"},
	{module + "/rpc", "the daemon's wire"},
	{module + "/state", "the daemon's core"},
	{module + "/bridge", "the daemon's reading of hook payloads"},
	{module + "/store", "the daemon's registry"},
	{module + "/agentlog", "the transcript readers"},
	{module + "/forkcmd", "the judge's fork"},
	{module + "/install", "install and doctor"},
	{module + "/textview", "the views"},
	{module + "/report", "the report page"},
	{module + "/impact", "impact"},
	{module + "/prices", "the price table"},
	{module + "/replay", "the replay engine"},
	{module + "/harness", "the agents' log readers (OpenCode's brings a SQLite engine)"},
	{module + "/internal/jsonscan", "a JSON decoder the hook does not need"},
	{module + "/internal/jstext", "a JSON decoder the hook does not need"},
	{module + "/internal/jsonobj", "a JSON decoder the hook does not need"},
	{"github.com/rs/zerolog", "the daemon's logger"},
	{"github.com/sourcegraph/conc", "the daemon's goroutine helpers"},
	{"go.lsp.dev/jsonrpc2", "the daemon's error codes"},
	{"github.com/segmentio/encoding", "a JSON decoder the hook does not need"},
	{"github.com/go-json-experiment/json", "a JSON decoder the hook does not need"},
}

// rule is a package, or a module's packages, with why the test names it.
type rule struct{ path, why string }

// match is the rule of rules path falls under, nil when none.
func match(rules []rule, path string) *rule {
	for i := range rules {
		if deptest.Within(path, rules[i].path) {
			return &rules[i]
		}
	}
	return nil
}

// otherModules are the only packages of other modules the hook may link, each with why.
var otherModules = []rule{
	{"golang.org/x/sys", "system calls the standard library lacks (a socket peer's credentials), no daemon code"},
}

// TestHookLinksNothingOfTheDaemon: on every system saverd builds for, saverd-hook links the standard
// library and a few small packages of this module, none of daemonOnly, and of other modules only
// otherModules': a new import two levels down fails here, naming the chain that brought it in.
func TestHookLinksNothingOfTheDaemon(t *testing.T) {
	for _, goos := range deptest.Systems {
		t.Run(goos, func(t *testing.T) {
			g := deptest.List(t, goos, module+"/cmd/saverd-hook")
			for _, path := range slices.Sorted(maps.Keys(g.Packages)) {
				if g.Packages[path].Standard {
					continue
				}
				if bad := match(daemonOnly, path); bad != nil {
					t.Errorf("saverd-hook links %s (%s): %s", path, bad.why, g.Via(path))
				} else if !deptest.Within(path, module) && match(otherModules, path) == nil {
					t.Errorf("saverd-hook links %s, a package of another module: %s", path, g.Via(path))
				}
			}
		})
	}
}
