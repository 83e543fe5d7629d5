package daemon

import (
	"os"
	"runtime"
	"sync"
)

// The stdio daemon's read loop answers one request at a time, and over pipes it answered sooner with one
// P than with the default two on a 2-vCPU machine: BenchmarkDaemonFloors' p50/echo 1.56 against 1.93 in
// one batch of alternating runs, by 0.05–0.4 in the others (README, Performance), the CPU per call the same.
// Work off the read loop (a Later, a background run: a judge, a registry write, a transcript read) gets
// the default back while it runs, so neither a long parse nor a blocking write holds the only P the read
// loop has. GOMAXPROCS in the environment, or a machine with one CPU, leaves the runtime as it is.

// LoopProcs lends the processors a stdio daemon keeps from its read loop to the work off it.
type LoopProcs struct {
	mu  sync.Mutex
	off int // runs off the read loop now in flight
}

// StdioProcs gives the read loop one P, or answers nil when the environment chose GOMAXPROCS or the
// default is one already.
func StdioProcs() *LoopProcs {
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) == 1 {
		return nil
	}
	runtime.GOMAXPROCS(1)
	return &LoopProcs{}
}

// offLoop is the hook rpc.Options.OffLoop and session.Options.OffLoop call: the first run off the
// loop restores the default, the last to end takes it back to one. Each done counts once.
func (p *LoopProcs) offLoop() (done func()) {
	p.mu.Lock()
	if p.off++; p.off == 1 {
		runtime.SetDefaultGOMAXPROCS()
	}
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			if p.off--; p.off == 0 {
				runtime.GOMAXPROCS(1)
			}
			p.mu.Unlock()
		})
	}
}

// Hook is offLoop, or nil for a daemon that keeps the runtime's own setting.
func (p *LoopProcs) Hook() func() (done func()) {
	if p == nil {
		return nil
	}
	return p.offLoop
}
