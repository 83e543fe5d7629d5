package state

import "testing"

func BenchmarkPaneModel(b *testing.B) {
	s := fullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = BuildPane(s, nil)
	}
}
