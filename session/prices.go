package session

import (
	"time"

	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state"
)

// TablePrices is the PriceTable of a prices.Table. A fork's cache creation is priced as 5-minute cache
// writes, the lifetime a forked request writes at unless its client asks for the hour.
type TablePrices struct{ Table *prices.Table }

// Cost is one call's dollars at the model's price in force at at.
func (p TablePrices) Cost(model string, at time.Time, u state.Tokens) (float64, bool) {
	return p.Table.Cost(model, at, prices.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite5m: u.CacheCreate})
}

// CacheRead is the model's price of a million cache-read tokens at at.
func (p TablePrices) CacheRead(model string, at time.Time) (float64, bool) {
	r, ok := p.Table.RateAt(model, at)
	return r.CacheRead, ok
}

// CacheWrite is the model's price of a million 5-minute cache-write tokens at at: what context a request
// adds costs the first time (a model billed no separate write prices it as input).
func (p TablePrices) CacheWrite(model string, at time.Time) (float64, bool) {
	r, ok := p.Table.RateAt(model, at)
	return r.CacheWrite5m, ok
}
