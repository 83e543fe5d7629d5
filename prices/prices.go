// Package prices holds what one API call costs: an effective-dated table of USD per million tokens per
// model and usage kind (input, output, cache reads, 5-minute and 1-hour cache writes), with the
// long-prompt bands some models have. It is pure: the table is embedded and the one function that reads
// an override file (LoadFile) is kept apart from the arithmetic.
package prices

import (
	"regexp"
	"sort"
	"strings"
	"time"
)

// Usage is what one call was billed, in tokens, by kind. Input is input not read from cache; CacheRead the
// part read from cache; the two cache-write kinds what was written at each lifetime. Every harness's log is
// converted to these meanings before it is priced.
type Usage struct {
	Input        int64
	Output       int64
	CacheRead    int64
	CacheWrite5m int64
	CacheWrite1h int64
}

// Prompt is the whole prompt of the call: every input-side kind.
func (u Usage) Prompt() int64 { return u.Input + u.CacheRead + u.CacheWrite5m + u.CacheWrite1h }

// Rate is one model's price in USD per million tokens of each kind. A model with no separate cache-write
// price carries its input price there.
type Rate struct {
	Input        float64 `json:"input"`
	Output       float64 `json:"output"`
	CacheRead    float64 `json:"cache_read"`
	CacheWrite5m float64 `json:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h"`
	// LongAbove is the long-prompt band: a call whose Prompt exceeds it pays LongInput times every
	// input-side price and LongOutput times the output price, for the whole call. 0: no band.
	LongAbove  int64   `json:"long_above,omitempty"`
	LongInput  float64 `json:"long_input,omitempty"`
	LongOutput float64 `json:"long_output,omitempty"`
}

// Entry is a Rate in force from a date on (until the next entry of the same model).
type Entry struct {
	From time.Time
	Rate Rate
}

// Table is the prices of every known model. The zero Table knows no model.
type Table struct {
	models map[string][]Entry // model id → entries, oldest first
}

// Cost is the USD cost of one call of model at the time at, at the price in force then; ok is false when
// the model is not in the table (its cost is unknown, never 0). A call older than the model's first entry
// is priced at that first entry: the earliest published price is the best figure there is.
func (t *Table) Cost(model string, at time.Time, u Usage) (usd float64, ok bool) {
	r, ok := t.RateAt(model, at)
	if !ok {
		return 0, false
	}
	in, out := 1.0, 1.0
	if r.LongAbove > 0 && u.Prompt() > r.LongAbove {
		in, out = r.LongInput, r.LongOutput
	}
	sum := in*(float64(u.Input)*r.Input+float64(u.CacheRead)*r.CacheRead+
		float64(u.CacheWrite5m)*r.CacheWrite5m+float64(u.CacheWrite1h)*r.CacheWrite1h) +
		out*float64(u.Output)*r.Output
	return sum / 1e6, true
}

// RateAt is the rate of model in force at at.
func (t *Table) RateAt(model string, at time.Time) (Rate, bool) {
	es := t.entries(model)
	if len(es) == 0 {
		return Rate{}, false
	}
	i := sort.Search(len(es), func(i int) bool { return es[i].From.After(at) })
	return es[max(0, i-1)].Rate, true
}

// Canonical is the id model is priced under (lower-case, without a release-date suffix), and whether it
// has a price. Pricing many calls under the canonical id skips the normalising on every one.
func (t *Table) Canonical(model string) (string, bool) {
	if t == nil || t.models == nil {
		return "", false
	}
	if _, ok := t.models[model]; ok {
		return model, true
	}
	id := strings.ToLower(strings.TrimSpace(model))
	if _, ok := t.models[id]; ok {
		return id, true
	}
	id = dateSuffix.ReplaceAllString(id, "")
	_, ok := t.models[id]
	return id, ok
}

// Known reports whether model has a price.
func (t *Table) Known(model string) bool { return len(t.entries(model)) > 0 }

// dateSuffix is the release date some model ids carry (claude-sonnet-4-5-20250929): the price is the
// family's, so the id is looked up again without it.
var dateSuffix = regexp.MustCompile(`-\d{8}$`)

func (t *Table) entries(model string) []Entry {
	if t == nil || t.models == nil {
		return nil
	}
	if es, ok := t.models[model]; ok {
		return es // the common case, with no copy made: every call of a session asks
	}
	id := strings.ToLower(strings.TrimSpace(model))
	if es, ok := t.models[id]; ok {
		return es
	}
	return t.models[dateSuffix.ReplaceAllString(id, "")]
}

// With is t with every model of over replacing t's entries of that model: an override names whole price
// histories, so a stale embedded entry can never outlive it.
func (t *Table) With(over *Table) *Table {
	out := &Table{models: make(map[string][]Entry, len(t.models)+len(over.models))}
	for m, es := range t.models {
		out.models[m] = es
	}
	for m, es := range over.models {
		out.models[m] = es
	}
	return out
}

// Models lists the model ids the table prices, sorted.
func (t *Table) Models() []string {
	out := make([]string, 0, len(t.models))
	for m := range t.models {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (t *Table) add(model string, from time.Time, r Rate) {
	if t.models == nil {
		t.models = make(map[string][]Entry)
	}
	id := strings.ToLower(model)
	es := append(t.models[id], Entry{From: from, Rate: r})
	sort.SliceStable(es, func(i, j int) bool { return es[i].From.Before(es[j].From) })
	t.models[id] = es
}
