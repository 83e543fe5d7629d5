package agentlog

import (
	"sort"
	"time"
)

// CallSpend is one API call of a record as it was priced: when, which model, its tokens and its cost
// (nil: the model has no price).
type CallSpend struct {
	At     time.Time
	Model  string
	Tokens Tokens
	Cost   *float64
}

// Spends lists the calls of a record read from the agents' logs (Scan, a harness package's reader),
// oldest first, each priced with o's table as the record's cost was. A record decoded from JSON holds no
// calls and lists none. What a 5-hour block or a day holds is counted per call, not per session: a
// session may run across both.
func (r *Record) Spends(o Options) []CallSpend {
	tab := o.Table()
	canon := make(map[string]string)
	out := make([]CallSpend, len(r.calls))
	for i := range r.calls {
		c := &r.calls[i]
		id, seen := canon[c.Model]
		if !seen {
			id, _ = tab.Canonical(c.Model)
			canon[c.Model] = id
		}
		out[i] = CallSpend{At: c.At, Model: c.Model, Tokens: TokensOf(c.Usage)}
		if usd, ok := tab.Cost(id, c.At, c.Usage); ok {
			out[i].Cost = &usd
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}
