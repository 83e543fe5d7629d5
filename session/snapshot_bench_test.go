package session

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/rpc"
)

// BenchmarkSnapshotCall is tool.call handled in-process on a full session, timed one by one and split by
// whether the call took the session's rollback snapshot (one in snapshotEvery actions) or not: the
// snapshot's share of the tail. It reports each group's p50 and p99 (and the snapshot calls' max).
//
//	go test -run '^$' -bench SnapshotCall -benchtime 40000x ./session
func BenchmarkSnapshotCall(b *testing.B) {
	srv := fullTable(b)
	sess, err := srv.Session("s")
	if err != nil {
		b.Fatal(err)
	}
	params := make([]json.RawMessage, 4096)
	for i := range params {
		params[i] = json.RawMessage(fullsession.ToolCall("s", 10_000+i))
	}
	ctx := context.Background()
	var snap, plain []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sess.mu.Lock()
		takes := len(sess.journal) >= snapshotEvery
		sess.mu.Unlock()
		t0 := time.Now()
		if _, err := srv.Handle(ctx, rpc.Request{Method: "tool.call", Params: params[i%len(params)]}); err != nil {
			b.Fatal(err)
		}
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
