package report

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// BlockLength is a subscription's usage window: Claude's (and ChatGPT's) plans count usage in windows of
// five hours from the first message.
const BlockLength = 5 * time.Hour

// Block is one 5-hour window of one harness's calls: a Group (its key the window's start, RFC 3339 in
// the zone asked for) with the window's bounds, and for the window still open its pace.
type Block struct {
	Group
	Harness   string    `json:"harness"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	FirstCall time.Time `json:"first_call"`
	LastCall  time.Time `json:"last_call"`
	// Active: the window has not ended and its last call is less than five hours old.
	Active bool `json:"active"`
	// Pace is the open window's spend rate and where it leads by the window's end; nil for a closed
	// window, or one whose calls all came at one instant (no rate yet).
	Pace *Pace `json:"pace,omitempty"`
}

// Pace is the priced spend's rate over the window so far (from its first call to its last) and what the
// window comes to at its end if that rate holds.
type Pace struct {
	USDPerHour       float64 `json:"usd_per_hour"`
	ProjectedCost    float64 `json:"projected_cost"`
	RemainingMinutes int     `json:"remaining_minutes"`
}

// BlockCall is one call as Blocks takes it: whose session, which harness, and what it spent.
type BlockCall struct {
	Session string
	Harness string
	agentlog.CallSpend
}

// Calls lists every call of recs, priced with o's table, with its session and harness.
func Calls(recs []agentlog.Record, o agentlog.Options) []BlockCall {
	var out []BlockCall
	for i := range recs {
		r := &recs[i]
		for _, c := range r.Spends(o) {
			out = append(out, BlockCall{Session: r.SessionID, Harness: r.Harness, CallSpend: c})
		}
	}
	return out
}

// Blocks cuts each harness's calls into 5-hour windows as ccusage's blocks command does: a window starts
// at its first call's hour (floored, in UTC) and holds every later call until one comes more than five
// hours after the window's start or after the call before it, which starts the next. The windows are
// listed by start, then harness. Unlike ccusage, each harness has windows of its own (a Claude window
// and a ChatGPT one are different limits), and the empty gaps between windows are not listed.
func Blocks(calls []BlockCall, now time.Time, loc *time.Location) []Block {
	byHarness := make(map[string][]BlockCall)
	for _, c := range calls {
		byHarness[c.Harness] = append(byHarness[c.Harness], c)
	}
	var out []Block
	for harness, cs := range byHarness {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].At.Before(cs[j].At) })
		from := 0
		for i := 1; i <= len(cs); i++ {
			if i < len(cs) {
				start := cs[from].At.UTC().Truncate(time.Hour)
				if cs[i].At.Sub(start) <= BlockLength && cs[i].At.Sub(cs[i-1].At) <= BlockLength {
					continue
				}
			}
			out = append(out, block(harness, cs[from:i], now, loc))
			from = i
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].Harness < out[j].Harness
	})
	return out
}

// block sums one window's calls (oldest first).
func block(harness string, cs []BlockCall, now time.Time, loc *time.Location) Block {
	start := cs[0].At.UTC().Truncate(time.Hour)
	b := Block{Harness: harness, Start: start.In(loc), End: start.Add(BlockLength).In(loc),
		FirstCall: cs[0].At.In(loc), LastCall: cs[len(cs)-1].At.In(loc)}
	b.Key = b.Start.Format(time.RFC3339)
	sessions := make(map[string]bool)
	for _, c := range cs {
		sessions[c.Session] = true
		b.Calls++
		b.Tokens.Add(c.Tokens)
		if c.Cost == nil {
			b.UnpricedTokens += c.Tokens.Total()
			if !slices.Contains(b.Unpriced, c.Model) {
				b.Unpriced = append(b.Unpriced, c.Model)
			}
			continue
		}
		b.Priced += *c.Cost
	}
	b.Sessions = len(sessions)
	b.Finish()
	b.Active = now.Sub(cs[len(cs)-1].At) < BlockLength && now.Before(b.End)
	if elapsed := b.LastCall.Sub(b.FirstCall); b.Active && elapsed > 0 {
		rate := b.Priced / elapsed.Hours()
		left := max(0, b.End.Sub(now))
		b.Pace = &Pace{
			USDPerHour:       round6(rate),
			ProjectedCost:    round6(b.Priced + rate*left.Hours()),
			RemainingMinutes: int(math.Round(left.Minutes())),
		}
	}
	return b
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
