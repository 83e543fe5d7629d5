package handlers

import (
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// PriceTable is what a judge run and a saving are priced by: the dollar cost of one call of a model at
// a time, and the model's price of a million cache-read tokens. ok is false for a model it does not know.
type PriceTable interface {
	Cost(model string, at time.Time, u state.Tokens) (usd float64, ok bool)
	CacheRead(model string, at time.Time) (usdPerMTok float64, ok bool)
}

// modelName is the session's model: the hook bridge's, else the last main-loop turn's.
func (sess *Session) modelName() string {
	if b := sess.bridge; b != nil && b.model != "" {
		return b.model
	}
	return sess.st.Money.Model
}

// noteModel records the model a main-loop turn ran on, with its cache-read price, the first time it is
// seen and whenever it changes. Called under the lock.
func (sess *Session) noteModel(model string, now int64) {
	if model == "" || (model == sess.st.Money.Model && sess.priceNoted) {
		return
	}
	sess.priceNoted = true
	rate, ok := 0.0, false
	if t := sess.srv.opt.Prices; t != nil {
		rate, ok = t.CacheRead(model, time.UnixMilli(now))
	}
	sess.dispatch(state.SetPrice{Model: model, CacheRead: rate, Known: ok})
}

// costOf is what one fork cost in dollars: its own figure when it reported one, else its usage by kind
// at the session model's price; nil when neither is known. Called under the lock.
func (sess *Session) costOf(res *ForkResult, now int64) *float64 {
	if res.CostUSD != nil {
		return new(*res.CostUSD)
	}
	model := sess.modelName()
	sess.noteModel(model, now)
	t := sess.srv.opt.Prices
	if t == nil || model == "" {
		return nil
	}
	usd, ok := t.Cost(model, time.UnixMilli(now), judge.UsageOf(res.Usage))
	if !ok {
		return nil
	}
	return &usd
}
