//go:build linux

package main

import (
	"strconv"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
)

// TestRealCodexTurnUsageCountsEveryCall is TestRealTurnUsageCountsEveryCall in the real Codex CLI: after
// a one-call turn, read before any other event, and after a turn of three calls, the session's new
// tokens (input not read from cache, and output) are what the scripted API billed, summed here from its
// replies, and the window is what the newest call held.
func TestRealCodexTurnUsageCountsEveryCall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	e := newCodexLive(t, bin, `{"judgeBudget": 0, "detectors": false}`)
	var mu sync.Mutex
	var billed []codexapi.Usage
	e.srv.Intercept(func(r codexapi.Request) (codexapi.Step, bool) {
		step, ok := e.m.answer(r)
		if ok {
			mu.Lock()
			billed = append(billed, step.Usage)
			mu.Unlock()
		}
		return step, ok
	})
	check := func(name, id string) {
		t.Helper()
		m := debugUsage.FindStringSubmatch(debugOf(t, e.sock, id))
		if m == nil {
			t.Fatalf("%s: /saver debug has no usage line", name)
		}
		mu.Lock()
		var total, window int64
		for _, u := range billed {
			total += int64(u.Input - u.Cached + u.Output)
			window = int64(u.Input + u.Output)
		}
		calls := len(billed)
		mu.Unlock()
		if got, _ := strconv.ParseInt(m[2], 10, 64); got != total {
			t.Errorf("%s: the session counts %d new tokens, the API billed %d over %d calls", name, got, total, calls)
		}
		if m[1] != strconv.FormatInt(window, 10) {
			t.Errorf("%s: the window reads %s tokens, the newest call held %d", name, m[1], window)
		}
	}
	e.m.queue(codexapi.Step{Text: "One call."})
	id := e.run("", "hello")
	check("after a one-call turn", id)
	e.m.queue(execStep("npm test"), execStep("npm test"), codexapi.Step{Text: "Ran them twice."})
	e.run(id, "run the tests")
	check("after a three-call turn", id)
}
