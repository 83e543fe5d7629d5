package session

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/state/intake"
)

// BenchmarkSnapshotCall is tool.call's work in the session API on a full session (CallOf, then
// Session.ToolCall, as handlers' runToolCall makes them; the params read before the timer, as the frame's
// own pass reads them before the handler), timed one by one and split by whether the call took the
// session's rollback snapshot (one in snapshotEvery actions) or not: the snapshot's share of the tail. It
// reports each group's p50 and p99.
//
//	go test -run '^$' -bench SnapshotCall -benchtime 40000x ./session
func BenchmarkSnapshotCall(b *testing.B) {
	srv := fullTable(b)
	sess, err := srv.Session("s")
	if err != nil {
		b.Fatal(err)
	}
	type read struct {
		p ToolCallParams
		e intake.ToolEvent
	}
	calls := make([]read, 4096)
	for i := range calls {
		c := &calls[i]
		if err := json.Unmarshal(fullsession.ToolCall("s", 10_000+i), &c.p); err != nil {
			b.Fatal(err)
		}
		if c.e, err = intake.ToolEventFromJSON(c.p.Event); err != nil {
			b.Fatal(err)
		}
	}
	var snap, plain []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sess.mu.Lock()
		takes := len(sess.journal) >= snapshotEvery
		sess.mu.Unlock()
		c := &calls[i%len(calls)]
		t0 := time.Now()
		s, call, err := srv.CallOf(&c.p, c.e, c.p.At)
		if err != nil {
			b.Fatal(err)
		}
		s.ToolCall(&call)
		d := time.Since(t0)
		if takes {
			snap = append(snap, d)
		} else {
			plain = append(plain, d)
		}
	}
	b.StopTimer()
	if len(snap) == 0 {
		return // too few calls to reach a snapshot
	}
	q := func(d []time.Duration, pct int) float64 {
		slices.Sort(d)
		return float64(d[min(len(d)-1, len(d)*pct/100)].Nanoseconds()) / 1e3
	}
	b.ReportMetric(q(plain, 50), "plain-p50-µs")
	b.ReportMetric(q(plain, 99), "plain-p99-µs")
	b.ReportMetric(q(snap, 50), "snap-p50-µs")
	b.ReportMetric(q(snap, 99), "snap-p99-µs")
}
