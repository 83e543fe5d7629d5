package daemon

import (
	"runtime"
	"sync"
	"testing"
)

// TestLoopProcs: a stdio daemon runs its read loop on one P; the first run off the loop brings the
// default back, the last to end takes it back to one, and a done called twice counts once.
func TestLoopProcs(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	defer runtime.SetDefaultGOMAXPROCS()
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	p := StdioProcs()
	if def == 1 {
		if p != nil {
			t.Fatal("one CPU: StdioProcs took over a default that is one P already")
		}
		return
	}
	if p == nil {
		t.Fatal("StdioProcs left the runtime as it was with GOMAXPROCS unset")
	}
	procs := func(want int, when string) {
		t.Helper()
		if got := runtime.GOMAXPROCS(0); got != want {
			t.Fatalf("%s: GOMAXPROCS %d, want %d", when, got, want)
		}
	}
	procs(1, "serving")
	first := p.Hook()()
	procs(def, "one run off the loop")
	second := p.offLoop()
	first()
	first()
	procs(def, "the first run ended (twice), the second still running")
	second()
	procs(1, "both ended")
}

// TestLoopProcsLeaveAChosenSetting: GOMAXPROCS in the environment is the person's choice.
func TestLoopProcsLeaveAChosenSetting(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2")
	before := runtime.GOMAXPROCS(0)
	if p := StdioProcs(); p != nil || p.Hook() != nil {
		t.Fatal("StdioProcs changed the runtime though GOMAXPROCS was set")
	}
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("GOMAXPROCS %d, was %d", got, before)
	}
}

// TestLoopProcsConcurrent: runs that start and end on many goroutines at once leave the read loop one P.
func TestLoopProcsConcurrent(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	defer runtime.SetDefaultGOMAXPROCS()
	runtime.SetDefaultGOMAXPROCS()
	p := StdioProcs()
	if p == nil {
		return // one CPU: nothing is lent (TestLoopProcs checks that)
	}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for range 20 {
				p.offLoop()()
			}
		})
	}
	wg.Wait()
	if got := runtime.GOMAXPROCS(0); got != 1 || p.off != 0 {
		t.Fatalf("after the runs: GOMAXPROCS %d, %d still counted; want 1 and 0", got, p.off)
	}
}
