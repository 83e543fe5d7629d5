package agentlog

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/prices"
)

// Record is one agent session in the sessions schema impact reads, plus tokens by kind and model. Calls,
// tools and tokens include the session's subagents, each call counted once.
type Record struct {
	SessionID string               `json:"session_id"`
	Harness   string               `json:"harness"`
	Repo      *string              `json:"repo"`    // git top level of Cwd; null outside a repository
	Project   *string              `json:"project"` // basename of Repo, else of Cwd
	Cwd       string               `json:"cwd,omitempty"`
	Start     time.Time            `json:"start"`
	End       time.Time            `json:"end"`
	Calls     int                  `json:"calls"`
	Tools     map[string]int       `json:"tools"`
	Cost      Cost                 `json:"cost"`
	Tokens    Tokens               `json:"tokens"`
	Models    map[string]*ModelUse `json:"models"`
	// Judge is what the judge and process forks saverd started for this session spent (its forks log
	// names them): the session's judge spend, kept apart from Cost so that Cost stays comparable with the
	// harness's own figure. Nil when there were none.
	Judge *ForkSpend `json:"judge,omitempty"`
	// Files are the logs the record was read from: the transcript or rollout first.
	Files []string `json:"files,omitempty"`
	// Unlogged names the API calls the harness makes that its log never records (Gemini CLI's model
	// router, OpenCode's session title): they are billed, but no figure here can count them. A note, not
	// a warning: nothing in the log is wrong.
	Unlogged string `json:"unlogged_calls,omitempty"`
	// Saver is what saverd found and fixed in the session; only the daemon's own records have it.
	Saver *Saver `json:"saver,omitempty"`

	// Warnings are the problems met reading it (bad lines, unknown models, a disagreeing cost-state).
	Warnings []string `json:"-"`

	calls  []Call
	hashes []uint64       // of the calls' sharedKey, set by Scan (hashCalls)
	began  time.Time      // the time of the log's first dated line in the order written (Began)
	figure *HarnessFigure // the harness's own count, checked against the calls (CheckHarnessFigure)
}

// Cost is what the session cost in USD.
type Cost struct {
	// Total is the sum over its calls at saverd's prices; null when a call's model has no price.
	Total *float64 `json:"total"`
	// Priced is the sum over the calls that have a price (Total when every call has one).
	Priced float64 `json:"priced"`
	// Unpriced names the models with no price.
	Unpriced []string `json:"unpriced_models,omitempty"`
	// UnpricedTokens counts the tokens (every kind) of the calls with no price: what Priced leaves out.
	// Always written, 0 included, so that a query over many records has the column.
	UnpricedTokens int64 `json:"unpriced_tokens"`
	// Harness is the harness's own figure when its log carries one (Claude Code's cost-state).
	Harness *float64 `json:"harness,omitempty"`
}

// Tokens are token counts by kind, with the meanings of Claude Code's usage: Input is input not read from
// cache, CacheRead the cached part, CacheWrite what was written to cache, Output output with reasoning.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// Add adds o to t.
func (t *Tokens) Add(o Tokens) {
	t.Input += o.Input
	t.Output += o.Output
	t.CacheRead += o.CacheRead
	t.CacheWrite += o.CacheWrite
}

// Total is every token of every kind.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CacheRead + t.CacheWrite }

// ForkSpend sums the forks of one session.
type ForkSpend struct {
	Forks int `json:"forks"`
	// Calls are the API calls read from the forks' own logs; a fork no log holds (an --ephemeral Codex
	// run) adds its tokens and cost, and no calls.
	Calls  int      `json:"calls"`
	Tokens Tokens   `json:"tokens"`
	Cost   *float64 `json:"cost"` // null when some fork's model has no price
}

// add counts a fork read from its own log: its calls, as its record priced them.
func (f *ForkSpend) add(r *Record) {
	f.Calls += r.Calls
	f.count(r.Tokens, r.Cost.Total)
}

// addLogged counts a fork from the tokens its forks-log line records, at its model's price when it ran.
func (f *ForkSpend) addLogged(fr ForkRecord, tab *prices.Table) {
	var cost *float64
	if at, err := time.Parse(time.RFC3339Nano, fr.At); err == nil && fr.Model != "" {
		id, _ := tab.Canonical(fr.Model)
		t := fr.Tokens
		if usd, ok := tab.Cost(id, at, prices.Usage{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite5m: t.CacheWrite}); ok {
			cost = &usd
		}
	}
	f.count(*fr.Tokens, cost)
}

// count adds one fork's tokens and cost (nil: it has no price, and neither has the sum).
func (f *ForkSpend) count(t Tokens, cost *float64) {
	if f.Forks == 0 {
		f.Cost = new(float64)
	}
	f.Forks++
	f.Tokens.Add(t)
	if cost == nil {
		f.Cost = nil
	} else if f.Cost != nil {
		*f.Cost = round9(*f.Cost + *cost)
	}
}

// ModelUse is one model's share of a session.
type ModelUse struct {
	Calls  int      `json:"calls"`
	Tokens Tokens   `json:"tokens"`
	Cost   *float64 `json:"cost"` // null: no price for the model
}

// TokensOf is a call's usage as token counts by kind: its cache writes of either lifetime are one count.
func TokensOf(u prices.Usage) Tokens {
	return Tokens{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite5m + u.CacheWrite1h}
}

// Options tune the readers.
type Options struct {
	// Prices prices the calls; nil: the embedded table.
	Prices *prices.Table
	// MaxLine bounds a line in bytes; 0: DefaultMaxLine.
	MaxLine int
	// Limits bound each file read: its size on disk and a .zst's inflated size (0: DefaultMaxFile), and
	// a deadline (zero: none). A file past them is skipped with a warning naming it, never read in part.
	Limits safefile.Limits

	tops *sync.Map // set by Scan: the git top levels found during it
}

// DefaultMaxFile bounds a log's size on disk and a .zst's inflated size: Claude Code's transcripts of
// long sessions run to tens of megabytes; a file of gigabytes (a sparse one, a zstd bomb) is skipped
// instead of read for minutes.
const DefaultMaxFile = 1 << 30

// limits is o.Limits with the defaults filled in.
func (o Options) limits() safefile.Limits {
	l := o.Limits
	if l.Size <= 0 {
		l.Size = DefaultMaxFile
	}
	if l.Inflated <= 0 {
		l.Inflated = DefaultMaxFile
	}
	return l
}

// Table is the table the calls are priced at: Prices, else the embedded one.
func (o Options) Table() *prices.Table {
	if o.Prices == nil {
		return defaultPrices()
	}
	return o.Prices
}

// defaultPrices is the embedded table, built once: Scan reads thousands of files with it.
var defaultPrices = sync.OnceValue(prices.Default)

// finish computes calls, tools, tokens, models and cost from the record's calls.
func (r *Record) finish(tab *prices.Table) { r.finishWith(tab, nil) }

// FinishWith is Finish with canon remembering, across the records one reader finishes, the id the
// table prices each model under (the table's answer for a model; its date-suffix regexp ran once per
// model and record otherwise). canon is the reader's to keep while opt's table is the same.
func (r *Record) FinishWith(opt Options, canon map[string]string) {
	r.placeRepo(opt.tops)
	r.finishWith(opt.Table(), canon)
	r.unpricedWarnings()
}

// finishWith is finish with canon, when set, remembering the ids tab prices each model under across the
// records one reader finishes (the id is the table's answer for the model, and its date-suffix regexp
// ran once per model and record otherwise).
func (r *Record) finishWith(tab *prices.Table, canon map[string]string) {
	r.Calls = len(r.calls)
	r.Tools = make(map[string]int)
	r.Models = make(map[string]*ModelUse)
	r.Tokens = Tokens{}
	var priced float64
	var unpricedTokens int64
	unpriced := make(map[string]bool)
	if canon == nil {
		canon = make(map[string]string) // model → the id the table prices it under
	}
	for i := range r.calls {
		c := &r.calls[i]
		for _, t := range c.Tools {
			r.Tools[t]++
		}
		m := r.Models[c.Model]
		if m == nil {
			m = &ModelUse{Cost: new(float64)}
			r.Models[c.Model] = m
		}
		tok := TokensOf(c.Usage)
		m.Calls++
		m.Tokens.Add(tok)
		r.Tokens.Add(tok)
		id, seen := canon[c.Model]
		if !seen {
			id, _ = tab.Canonical(c.Model)
			canon[c.Model] = id
		}
		usd, ok := tab.Cost(id, c.At, c.Usage)
		if !ok {
			unpriced[c.Model] = true
			unpricedTokens += tok.Total()
			m.Cost = nil
			continue
		}
		priced += usd
		if m.Cost != nil {
			*m.Cost += usd
		}
	}
	for _, m := range r.Models {
		if m.Cost != nil {
			*m.Cost = round9(*m.Cost)
		}
	}
	r.Cost.Priced = round9(priced)
	r.Cost.UnpricedTokens = unpricedTokens
	r.Cost.Unpriced = r.Cost.Unpriced[:0]
	for m := range unpriced {
		r.Cost.Unpriced = append(r.Cost.Unpriced, m)
	}
	sort.Strings(r.Cost.Unpriced)
	r.Cost.Total = nil
	if len(unpriced) == 0 {
		total := r.Cost.Priced
		r.Cost.Total = &total
	}
}

// unpricedWarnings names each model with no price once.
func (r *Record) unpricedWarnings() {
	for _, m := range r.Cost.Unpriced {
		r.Warnings = append(r.Warnings, r.unpricedWarning(m))
	}
}

// unpricedWarning is the warning of a session with calls of model m, which has no price. A call whose
// log names no model (a Codex rollout written before Codex recorded turn_context, in September 2025
// builds) is said to be so: no prices file can name it.
func (r *Record) unpricedWarning(m string) string {
	if m == "" {
		return "session " + r.SessionID + ": its log names no model for some calls: they have no cost (cost.total is null)"
	}
	return "session " + r.SessionID + ": no price for model " + quote(m) + ": its calls have no cost" + unpricedFix
}

const unpricedFix = " (cost.total is null; add the model to a prices file)"

// isUnpricedWarning reports whether w is one of the record's unpricedWarnings.
func (r *Record) isUnpricedWarning(w string) bool {
	for _, m := range r.Cost.Unpriced {
		if w == r.unpricedWarning(m) {
			return true
		}
	}
	return false
}

func quote(s string) string { return `"` + s + `"` }

// round9 keeps sums free of float noise without losing a cent's billionth.
func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// placeRepo fills Repo and Project from Cwd: the nearest directory up from Cwd holding a .git entry.
func (r *Record) placeRepo(tops *sync.Map) {
	if r.Cwd == "" {
		return
	}
	if top := gitTop(r.Cwd, tops); top != "" {
		r.Repo = &top
		p := filepath.Base(top)
		r.Project = &p
		return
	}
	p := filepath.Base(r.Cwd)
	r.Project = &p
}

// gitTop is the git top level of dir found on disk (a .git directory or file), "" when none: the log may
// come from another machine, so no git process is asked. tops, when set, caches the answers of one scan:
// thousands of sessions share a handful of working directories.
func gitTop(dir string, tops *sync.Map) string {
	if tops == nil {
		return findGitTop(dir)
	}
	if top, ok := tops.Load(dir); ok {
		return top.(string)
	}
	top := findGitTop(dir)
	tops.Store(dir, top)
	return top
}

func findGitTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if parent := filepath.Dir(d); parent == d {
			return ""
		}
	}
}
