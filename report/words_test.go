package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/timespan"
)

// TestSessionsTotalsPlurals: the sessions table's totals line counts in words a person reads: "1
// session", "1 call", not "1 sessions".
func TestSessionsTotalsPlurals(t *testing.T) {
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	rec := func(calls int) agentlog.Record {
		return agentlog.Record{Harness: "codex", Start: at, End: at.Add(time.Minute), Calls: calls}
	}
	for _, tc := range []struct {
		name string
		recs []agentlog.Record
		want string
	}{
		{"none", nil, "\n0 sessions, 0 calls, "},
		{"one of one call", []agentlog.Record{rec(1)}, "\n1 session, 1 call, "},
		{"one of two calls", []agentlog.Record{rec(2)}, "\n1 session, 2 calls, "},
		{"two", []agentlog.Record{rec(1), rec(0)}, "\n2 sessions, 1 call, "},
	} {
		var buf bytes.Buffer
		if err := writeSessionsTable(&buf, tc.recs, time.UTC); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("%s: table\n%s\nwant the totals line to start %q", tc.name, buf.String(), tc.want)
		}
	}
}

// TestNoBlocksSaysWhereItLooked: with no window the blocks table says where no call was found, naming a
// span or a harness only when one was asked for.
func TestNoBlocksSaysWhereItLooked(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		f      Filter
		active bool
		want   string
	}{
		{"nothing asked", Filter{}, false, "no calls in the agents' logs"},
		{"a harness", Filter{Harness: "codex"}, false, "no calls of codex in the agents' logs"},
		{"--since", Filter{Span: timespan.Span{Since: "7d"}}, false, "no calls in the span asked for"},
		{"--until and a harness", Filter{Span: timespan.Span{Until: "2026-11-01"}, Harness: "claude-code"}, false, "no calls of claude-code in the span asked for"},
		{"--active", Filter{}, true, "no window open now"},
	} {
		if err := tc.f.Span.Resolve(now); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		rep := BlocksReport{Blocks: KeepBlocks(nil, agentlog.Options{}, &tc.f, now, tc.active), None: NoBlocks(&tc.f, tc.active)}
		if err := rep.Write(&buf, "table"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if got := lines[len(lines)-1]; got != tc.want {
			t.Errorf("%s: last line %q, want %q", tc.name, got, tc.want)
		}
	}
}
