package daemon

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the heap size past which the collector works harder. With the collector run rarely (SetGCPercent(400), for p99), 50 sessions of
// 20,000 calls held 700 MB of mostly garbage over a 140 MB live heap; under this limit, 380 MB.
// It is a soft limit: a daemon whose live heap outgrows it runs slower, it does not fail.
const memoryLimit = 400 << 20

// gcPercent is how far the heap grows past what is live before the next collection. The ledger's rows
// are long-lived and every tool.call allocates its decoded result: collecting less often than Go's
// default (100) keeps p99 down and stays well inside the memory budget.
const gcPercent = 400

// TuneGC sets the collector's pace and the soft memory limit, each unless the environment chose it
// (GOGC, GOMEMLIMIT), as the Go runtime reads them.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
