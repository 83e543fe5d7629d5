package report

import (
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// TestBlocks: where one window ends and the next starts, per harness, and the open window's pace.
func TestBlocks(t *testing.T) {
	base := time.Date(2026, 12, 1, 9, 40, 0, 0, time.UTC)
	usd := func(v float64) *float64 { return &v }
	call := func(harness string, after time.Duration, cost *float64) BlockCall {
		return BlockCall{Session: harness + "-s", Harness: harness,
			CallSpend: agentlog.CallSpend{At: base.Add(after), Model: "m", Tokens: agentlog.Tokens{Input: 100}, Cost: cost}}
	}
	for _, c := range []struct {
		name   string
		calls  []BlockCall
		now    time.Duration // after base
		starts []string      // each window's key
		active []bool
	}{
		{"one window", []BlockCall{call("c", 0, usd(1)), call("c", 4*time.Hour, usd(1))}, 30 * time.Hour,
			[]string{"2026-12-01T09:00:00Z"}, []bool{false}},
		// 09:40 floors to 09:00: a call at 14:10 is more than five hours after the window's start.
		{"past the window's start", []BlockCall{call("c", 0, usd(1)), call("c", 4*time.Hour+30*time.Minute, usd(1))}, 30 * time.Hour,
			[]string{"2026-12-01T09:00:00Z", "2026-12-01T14:00:00Z"}, []bool{false, false}},
		// exactly five hours after the start is still in (ccusage: more than five hours starts anew)
		{"at the edge", []BlockCall{call("c", 0, usd(1)), call("c", 4*time.Hour+20*time.Minute, usd(1))}, 30 * time.Hour,
			[]string{"2026-12-01T09:00:00Z"}, []bool{false}},
		{"harnesses apart", []BlockCall{call("codex", time.Hour, usd(1)), call("claude-code", 0, usd(1))}, 2 * time.Hour,
			[]string{"2026-12-01T09:00:00Z", "2026-12-01T10:00:00Z"}, []bool{true, true}},
		{"open and idle too long", []BlockCall{call("c", 0, usd(1))}, 5*time.Hour + time.Minute,
			[]string{"2026-12-01T09:00:00Z"}, []bool{false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := Blocks(c.calls, base.Add(c.now), time.UTC)
			if len(bs) != len(c.starts) {
				t.Fatalf("%d windows, want %d: %+v", len(bs), len(c.starts), bs)
			}
			var calls int
			for i, b := range bs {
				calls += b.Calls
				if b.Key != c.starts[i] || b.Active != c.active[i] || !b.End.Equal(b.Start.Add(BlockLength)) {
					t.Errorf("window %d: %s active %v, want %s active %v", i, b.Key, b.Active, c.starts[i], c.active[i])
				}
			}
			if calls != len(c.calls) {
				t.Errorf("the windows hold %d calls of %d", calls, len(c.calls))
			}
		})
	}
}

// TestBlockPace: $3 in the hour from the first call to the last is $3 an hour; with two hours of the
// window left the window comes to $9. A call with no price leaves the cost null and the pace on the rest.
func TestBlockPace(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	usd := func(v float64) *float64 { return &v }
	calls := []BlockCall{
		{Session: "a", Harness: "claude-code", CallSpend: agentlog.CallSpend{At: start, Model: "p", Cost: usd(1)}},
		{Session: "b", Harness: "claude-code", CallSpend: agentlog.CallSpend{At: start.Add(time.Hour), Model: "p", Cost: usd(2)}},
		{Session: "b", Harness: "claude-code", CallSpend: agentlog.CallSpend{At: start.Add(30 * time.Minute), Model: "x", Tokens: agentlog.Tokens{Output: 9}}},
	}
	bs := Blocks(calls, start.Add(3*time.Hour), time.UTC)
	if len(bs) != 1 {
		t.Fatalf("%+v", bs)
	}
	b := bs[0]
	if b.Sessions != 2 || b.Calls != 3 || b.Cost != nil || b.Priced != 3 || b.UnpricedTokens != 9 || !b.Active || b.Pace == nil {
		t.Fatalf("%+v", b)
	}
	if p := *b.Pace; p.USDPerHour != 3 || p.ProjectedCost != 9 || p.RemainingMinutes != 120 {
		t.Fatalf("pace %+v", p)
	}
}
