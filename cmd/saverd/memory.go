package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the heap size past which the collector works harder. With the collector run rarely (SetGCPercent(400), for p99), 50 sessions of
// 20,000 calls held 700 MB of mostly garbage over a 140 MB live heap; under this limit, 380 MB.
// It is a soft limit: a daemon whose live heap outgrows it runs slower, it does not fail.
const memoryLimit = 400 << 20

// limitMemory sets the soft memory limit, unless the environment chose one (GOMEMLIMIT).
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
