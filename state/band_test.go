package state

import "testing"

func BenchmarkBandModel(b *testing.B) {
	s := fullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = BuildBand(s)
	}
}
