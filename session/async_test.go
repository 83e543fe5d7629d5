package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/state"
)

// newAsync is a harness whose background work runs in goroutines, as the daemon serves a live host.
func newAsync(t *testing.T, start map[string]any) *testHarness {
	t.Helper()
	h := newHarnessWith(t, Options{}, true, start)
	t.Cleanup(func() { _ = h.srv.Shutdown(context.Background()) })
	return h
}

// holdForks makes every fork wait until the returned release is called.
func (h *testHarness) holdForks() (release func()) {
	gate := make(chan struct{})
	h.host.mu.Lock()
	h.host.gate, h.host.forked = gate, make(chan struct{}, 8)
	h.host.mu.Unlock()
	return func() { close(gate) }
}

func (h *testHarness) awaitFork() {
	h.t.Helper()
	select {
	case <-h.host.forked:
	case <-time.After(5 * time.Second):
		h.t.Fatal("no fork started")
	}
}

// heldCadenceRun starts a quiet cadence run on twelve rows and three turns, its fork held until release.
func (h *testHarness) heldCadenceRun() (release func()) {
	h.twelve()
	release = h.holdForks()
	h.host.queue(reply(suiteFinding(nil)))
	for i := 0; i < 3; i++ {
		h.turnStart(int64(20_000 + 2*i))
		h.turnComplete(map[string]any{"at": 20_001 + 2*i, "usage": map[string]any{"input_tokens": 20_000, "output_tokens": 0, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})
	}
	h.awaitFork()
	return release
}

// TestAskedDuringCadenceRun: a check asked while a quiet cadence run is in flight is answered by that run,
// out loud, with the pane opened for the person (index.ts checkNow: asked; judgeOnce: requested || asked).
func TestAskedDuringCadenceRun(t *testing.T) {
	h := newAsync(t, nil)
	release := h.heldCadenceRun()
	if got := h.saver("check"); got != alreadyText {
		t.Fatalf("/saver check during a run = %q", got)
	}
	if got := h.saver("check"); got != alreadyText {
		t.Fatalf("a second /saver check during a run = %q", got)
	}
	release()
	h.srv.Quiesce()
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "ContextSaver: 1 new waster" {
		t.Fatalf("toasts = %q, want the run's one answer", got)
	}
	var focus *bool
	for _, n := range h.host.notes {
		if n.method == NotifyOpen {
			focus = n.params.(PaneOpen).Focus
		}
	}
	if focus == nil || !*focus {
		t.Fatal("the asked-for answer did not open the pane for the person")
	}
	sess, _ := h.srv.Session("s")
	sess.event(func() {
		if sess.st.Judge.InFlight || sess.st.Judge.Asked || sess.st.Judge.Running {
			t.Errorf("after the run: forking %v, asked %v, running %v", sess.st.Judge.InFlight, sess.st.Judge.Asked, sess.st.Judge.Running)
		}
	})
	if n := len(h.host.forksOf("judge")); n != 1 {
		t.Fatalf("judge forks = %d, want 1", n)
	}
}

// TestAsyncWorkflow: the journal and the script are read in the background; the call is answered at once.
func TestAsyncWorkflow(t *testing.T) {
	h := newAsync(t, nil)
	w := newWorkflow(t, startedW1, resultW2)
	h.turnStart(2_000)
	h.launch(3_000, w)
	h.srv.Quiesce()
	st := h.st()
	if len(st.Runs) != 1 || strings.Join(st.Runs[0].Phases, "|") != "Plan|Build|Review" || len(st.Loops) != 2 {
		t.Fatalf("runs %+v, loops %+v", st.Runs, st.Loops)
	}
}

// TestShutdownEndsForks: a fork in flight at shutdown ends its run, and the person who asked is told.
func TestShutdownEndsForks(t *testing.T) {
	h := newAsync(t, nil)
	h.twelve()
	h.holdForks()
	if got := h.saver("check"); got != checkingText {
		t.Fatalf("/saver check = %q", got)
	}
	h.awaitFork()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "ContextSaver: check failed — the daemon is shutting down" {
		t.Fatalf("toasts = %q", got)
	}
	if st := h.st(); st.Judge.Running || state.Str(st.Judge.Error) != "the daemon is shutting down" {
		t.Fatalf("judge = %+v", st.Judge)
	}
}

// TestInvalidateCoalesced: a live host is asked to redraw at most once a frame, and always after the last
// change; replay (Synchronous) says every one, in order.
func TestInvalidateCoalesced(t *testing.T) {
	h := newAsync(t, nil)
	h.host.reset()
	began := time.Now()
	for i := 0; i < 60; i++ {
		h.tool(int64(3_000+i), ev("Read", "file_path", "/p/x.ts"), nil)
	}
	elapsed := time.Since(began)
	time.Sleep(5 * invalidateEvery)
	n := h.host.count(NotifyInvalidate)
	if most := int(elapsed/invalidateEvery) + 2; n < 1 || n > most {
		t.Fatalf("%d ui.invalidate for 60 calls in %v, want 1..%d", n, elapsed, most)
	}

	s := newHarness(t, nil)
	s.host.reset()
	s.turnStart(2_000)
	s.tool(3_000, ev("Read", "file_path", "/p/x.ts"), nil)
	if got := s.host.methods(); strings.Join(got, ",") != "ui.invalidate,ui.invalidate" {
		t.Fatalf("synchronous notifications = %v", got)
	}

	off := newHarnessWith(t, Options{Synchronous: true}, true, nil)
	off.call("initialize", map[string]any{"capabilities": map[string]any{"fork": true, "invalidate": false}})
	off.host.reset()
	off.turnStart(2_000)
	if n := off.host.count(NotifyInvalidate); n != 0 {
		t.Fatalf("%d ui.invalidate with invalidate: false", n)
	}
}

// TestFlushAllWaitsForNoFork: FlushAll (the `shutdown` method's flush) writes the registries without
// waiting for a fork in flight.
func TestFlushAllWaitsForNoFork(t *testing.T) {
	h := newAsync(t, nil)
	h.twelve()
	h.holdForks()
	h.saver("check")
	h.awaitFork()
	done := make(chan struct{})
	go func() { h.srv.FlushAll(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("FlushAll waited for the fork in flight")
	}
}

// TestOffLoopSpansBackgroundRuns: Options.OffLoop is called as each background run starts (here a
// judge run, its fork held) and its done once the run has ended, so the stdio daemon lends the read
// loop's spare processors to exactly the work off it.
func TestOffLoopSpansBackgroundRuns(t *testing.T) {
	var mu sync.Mutex
	inFlight, starts := 0, 0
	opt := Options{OffLoop: func() func() {
		mu.Lock()
		inFlight++
		starts++
		mu.Unlock()
		return func() {
			mu.Lock()
			inFlight--
			mu.Unlock()
		}
	}}
	h := newHarnessWith(t, opt, true, nil)
	t.Cleanup(func() { _ = h.srv.Shutdown(context.Background()) })
	release := h.heldCadenceRun()
	mu.Lock()
	during := inFlight
	mu.Unlock()
	if during < 1 {
		t.Fatalf("%d runs counted off the loop while a judge's fork is held, want at least 1", during)
	}
	release()
	h.srv.Quiesce()
	mu.Lock()
	defer mu.Unlock()
	if inFlight != 0 || starts == 0 {
		t.Fatalf("after the runs: %d still counted, %d started", inFlight, starts)
	}
}
