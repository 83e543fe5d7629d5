package session

import (
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// PriceTable is what a judge run, a saving and an injected instruction are priced by: the dollar cost of
// one call of a model at a time, and the model's price of a million cache-read and of a million
// (5-minute) cache-write tokens. ok is false for a model it does not know.
type PriceTable interface {
	Cost(model string, at time.Time, u state.Tokens) (usd float64, ok bool)
	CacheRead(model string, at time.Time) (usdPerMTok float64, ok bool)
	CacheWrite(model string, at time.Time) (usdPerMTok float64, ok bool)
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
	sess.dispatch(PriceOf(sess.srv.opt.Prices, model, time.UnixMilli(now)))
}

// PriceOf is the SetPrice of model at at: what a million of its cache-read and (5-minute) cache-write
// tokens cost, or Known false when t has no price for it.
func PriceOf(t PriceTable, model string, at time.Time) state.SetPrice {
	if t == nil {
		return state.SetPrice{Model: model}
	}
	read, ok := t.CacheRead(model, at)
	if !ok {
		return state.SetPrice{Model: model}
	}
	write, _ := t.CacheWrite(model, at)
	return state.SetPrice{Model: model, CacheRead: read, CacheWrite: write, Known: true}
}

// costOf is what one fork cost in dollars: the host's figure for the fork alone when it sent one, else
// its own requests' usage by kind at the price of the model it ran on (the session's, unless the fork
// command knows another); nil when neither is known. Called under the lock.
func (sess *Session) costOf(res *ForkResult, now int64) *float64 {
	if res.CostUSD != nil {
		return new(*res.CostUSD)
	}
	model := sess.modelName()
	sess.noteModel(model, now)
	if res.Model != "" {
		model = res.Model
	}
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
