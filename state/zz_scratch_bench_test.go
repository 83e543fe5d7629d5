package state

import "testing"

func BenchmarkScratchShell(b *testing.B) {
	c := "cd web && NODE_ENV=test npm run test -- --coverage 2>&1 | tail -40"
	for b.Loop() { readShell(c) }
}
