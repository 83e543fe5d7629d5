package report

import (
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
)

func TestPeriodKey(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	paris, _ := time.LoadLocation("Europe/Paris")
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		at   string
		by   string
		loc  *time.Location
		want string
	}{
		{"2026-11-29T23:30:00Z", "day", time.UTC, "2026-11-29"},
		{"2026-11-29T23:30:00Z", "day", tokyo, "2026-11-30"},
		{"2026-11-29T23:30:00Z", "week", time.UTC, "2026-11-23"}, // a Sunday ends its ISO week
		{"2026-11-29T23:30:00Z", "week", tokyo, "2026-11-30"},    // Monday already in Tokyo
		{"2026-11-30T00:00:00Z", "week", time.UTC, "2026-11-30"}, // a Monday starts one
		{"2027-01-01T10:00:00Z", "week", time.UTC, "2026-12-28"}, // a week across the new year
		{"2026-10-25T01:30:00Z", "week", paris, "2026-10-19"},    // the day the clocks go back
		{"2026-11-30T23:30:00Z", "month", time.UTC, "2026-11"},
		{"2026-11-30T23:30:00Z", "month", tokyo, "2026-12"},
	} {
		if got := PeriodKey(at(c.at), c.by, c.loc); got != c.want {
			t.Errorf("PeriodKey(%s, %s, %s) = %s, want %s", c.at, c.by, c.loc, got, c.want)
		}
	}
}

// TestByModelKeepsWhatItLeavesOut: a model with no price is a group with a null cost whose tokens are
// all unpriced; the priced ones carry their cost.
func TestByModelKeepsWhatItLeavesOut(t *testing.T) {
	cost := 0.5
	recs := []agentlog.Record{{SessionID: "a", Harness: "codex", Calls: 3, Models: map[string]*agentlog.ModelUse{
		"known":   {Calls: 2, Tokens: agentlog.Tokens{Input: 10, Output: 5}, Cost: &cost},
		"unknown": {Calls: 1, Tokens: agentlog.Tokens{Input: 7, CacheRead: 3}},
	}}}
	gs := By(recs, "model", time.UTC)
	if len(gs) != 2 || gs[0].Key != "known" || gs[0].Cost == nil || *gs[0].Cost != 0.5 || gs[0].UnpricedTokens != 0 {
		t.Fatalf("known: %+v", gs)
	}
	if g := gs[1]; g.Key != "unknown" || g.Cost != nil || g.Priced != 0 || g.UnpricedTokens != 10 || len(g.Unpriced) != 1 {
		t.Fatalf("unknown: %+v", g)
	}
}
