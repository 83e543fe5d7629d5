package state

import (
	"math"
	"slices"

	"github.com/saverd/saverd/internal/jstext"
)

// Spend and savings in one unit, every figure measured on requests that happened. A judge or process run
// costs what its fork's own requests used, by kind at the model's price (a host's own figure for the fork
// alone wins). A credited saving is context a fixed habit no longer added: context is re-read (a cache
// read) once per later main-loop turn, so each main-loop turn that completes after the credit, until
// compaction or the session's end, adds the avoided tokens (its characters over CharsPerToken) as cache
// reads at that turn's price; a relapse takes back exactly what the credit accrued. The instructions
// saverd put into the context are spend of the same kind: written once (a cache write at the model's
// price), then re-read once per later main-loop turn of the context they are in. What the turns left to
// compaction would add is a projection, kept apart (Projected), never in a saved or net figure. The wall
// clock saved is shown beside the money, never priced. Where no price is known the figures are tokens,
// and say so. See protocol.md, "Spend and savings".

// CharsPerToken is the characters one token is taken to hold, as the rest of the ledger reckons.
const CharsPerToken = 4

// Money is what the session knows to price its judges, its savings and its instructions.
type Money struct {
	Model      string  // the session's model as the host named it; "" unknown
	CacheRead  float64 // USD per million cache-read tokens of Model
	CacheWrite float64 // USD per million (5-minute) cache-write tokens of Model
	Priced     bool    // Model has a price

	JudgeUSD      float64 // the priced judge and process runs
	JudgeUnpriced int64   // what the runs with no price spent, in tokens (as judge.SpentOf counts)

	// Saved is the cache reads the credited fixes spared on main-loop turns that happened.
	Saved Tally
	// Injected is what saverd's own texts in the context cost: the instructions and notes it sent, each
	// written once and re-read once per later main-loop turn of its context.
	Injected Tally
	// Live is saverd's own texts still in the main loop's context: they are re-read on every main-loop
	// turn until a compaction or a clear drops them.
	Live Accrual
}

// Tally is tokens of one kind and what they cost: USD over those counted at a known price, Unpriced the
// tokens counted when no price was known.
type Tally struct {
	Tokens   float64
	USD      float64
	Unpriced float64
}

// add counts tokens at usdPerMTok, or as unpriced when the price is not known.
func (t *Tally) add(tokens, usdPerMTok float64, priced bool) {
	t.Tokens += tokens
	if priced {
		t.USD += tokens * usdPerMTok / 1e6
	} else {
		t.Unpriced += tokens
	}
}

// sub takes o back out of t.
func (t *Tally) sub(o Tally) {
	t.Tokens -= o.Tokens
	t.USD -= o.USD
	t.Unpriced -= o.Unpriced
}

// Accrual is context a main-loop turn re-reads: Tokens in all, of which Fresh were added in turn FreshAt,
// which re-reads them only from the turn after (a turn's requests already in flight never held them).
type Accrual struct {
	Tokens  float64
	Fresh   float64
	FreshAt int
}

// added counts tokens added to the context in turn.
func (a *Accrual) added(tokens float64, turn int) {
	if a.FreshAt != turn {
		a.Fresh, a.FreshAt = 0, turn
	}
	a.Tokens += tokens
	a.Fresh += tokens
}

// rereadIn is the tokens turn re-reads: all of them but those added in that same turn.
func (a Accrual) rereadIn(turn int) float64 {
	if a.FreshAt >= turn {
		return max(0, a.Tokens-a.Fresh)
	}
	return a.Tokens
}

// Credit is what one pattern's instruction was credited: wall time and characters (the context share the
// saved toast and savedPct tell), the avoided tokens every later main-loop turn re-reads until compaction
// (Live), and what those re-reads have been worth so far (Accrued), which a relapse takes back exactly.
type Credit struct {
	Ms, Chars float64
	Live      Accrual
	Accrued   Tally
}

// credit adds what one settlement saved to the pattern's own account, so a relapse can take it back: its
// tokens start accruing re-reads from the next main-loop turn. A Credit is never changed in place (a clone
// of the state shares it). Called by the settlements.
func credit(s *State, p *Pattern, ms, chars float64) {
	if ms <= 0 && chars <= 0 {
		return
	}
	var c Credit
	if p.Credit != nil {
		c = *p.Credit
	}
	c.Ms += ms
	c.Chars += chars
	if chars > 0 {
		c.Live.added(chars/CharsPerToken, s.Turn)
	}
	p.Credit = &c
}

// withdraw takes back what a pattern was credited: the settlement that subtracts it from Saved, and its
// re-reads from Money.Saved.
func withdraw(s *State, p *Pattern) settlement {
	if p.Credit == nil {
		return settlement{}
	}
	st := settlement{ms: -p.Credit.Ms, chars: -p.Credit.Chars}
	s.Money.Saved.sub(p.Credit.Accrued)
	p.Credit = nil
	return st
}

// accrueTurn counts one completed main-loop turn's re-reads at the price in force: the avoided context of
// every credit still live (its card not back in the queue: a habit reported again accrues no more), and
// saverd's own texts in the context. Called by turnComplete before the turn's own settlements, whose
// credits start with the next turn.
func accrueTurn(s *State) {
	m := &s.Money
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Credit == nil || p.Credit.Live.Tokens <= 0 || slices.Contains(s.Cards, p.ID) {
			continue
		}
		tokens := p.Credit.Live.rereadIn(s.Turn)
		if tokens <= 0 {
			continue
		}
		c := *p.Credit
		c.Accrued.add(tokens, m.CacheRead, m.Priced)
		m.Saved.add(tokens, m.CacheRead, m.Priced)
		p.Credit = &c
	}
	if tokens := m.Live.rereadIn(s.Turn); tokens > 0 {
		m.Injected.add(tokens, m.CacheRead, m.Priced)
	}
}

// compactMoney: a compaction drops from the context both what a fix kept out of it and saverd's own
// texts, so neither is re-read any more; what they accrued stands.
func compactMoney(s *State) {
	s.Money.Live = Accrual{}
	for i := range s.Patterns {
		if c := s.Patterns[i].Credit; c != nil && c.Live.Tokens > 0 {
			nc := *c
			nc.Live = Accrual{}
			s.Patterns[i].Credit = &nc
		}
	}
}

// inject counts texts saverd put into a loop's context as spend: each written once at the cache-write
// price by the first request that carries it, and, in the main loop, re-read once on each turn after that
// request's (a subagent's turn is one run of requests, so its re-reads are within that turn and not
// counted, as the savings count none within a turn). The main loop's texts are then in its context
// (Delivered) until a compaction, a clear or a resume into a context that no longer holds them.
func inject(s *State, a Injected) {
	var tokens float64
	for _, t := range a.Texts {
		tokens += float64(jstext.Len16(t)) / CharsPerToken
	}
	if tokens == 0 {
		return
	}
	m := &s.Money
	m.Injected.add(tokens, m.CacheWrite, m.Priced)
	if !a.Main {
		return
	}
	turn := s.Turn
	if a.Ahead {
		turn++
	}
	holds(s, a.Texts, turn)
}

// held records texts sent before this daemon joined the session, which its context holds (ContextHolds):
// each was written once, which is spend as a send is, and is re-read on the turns after. The re-reads of
// the turns before the join are not known here (the texts' places in the transcript are not), and are
// left out rather than guessed.
func held(s *State, texts []string) {
	var tokens float64
	for _, t := range texts {
		if !slices.Contains(s.Delivered, t) {
			tokens += float64(jstext.Len16(t)) / CharsPerToken
		}
	}
	s.Money.Injected.add(tokens, s.Money.CacheWrite, s.Money.Priced)
	holds(s, texts, s.Turn)
}

// holds records texts as in the main loop's context from turn on: not sent again, and re-read on the
// turns after.
func holds(s *State, texts []string, turn int) {
	delivered := slices.Clone(s.Delivered) // replaced, never appended in place: a clone shares it
	for _, t := range texts {
		if !slices.Contains(delivered, t) {
			delivered = append(delivered, t)
			s.Money.Live.added(float64(jstext.Len16(t))/CharsPerToken, turn)
		}
	}
	s.Delivered = delivered
}

// Projected is what the credits still live would spare by compaction if the session went on at its
// recent pace: their tokens re-read on each turn left (TurnsToCompaction; before three growth samples,
// the tokens left at the session's average fill per turn). Never saved: a projection, shown apart.
func Projected(s *State) float64 {
	var live float64
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Credit != nil && !slices.Contains(s.Cards, p.ID) {
			live += p.Credit.Live.Tokens
		}
	}
	if live <= 0 {
		return 0
	}
	return live * turnsLeft(s)
}

// turnsLeft is the turns left to compaction: at the recent pace; before the pace is known, the tokens
// left at the session's average fill per turn so far; 0 when neither is known.
func turnsLeft(s *State) float64 {
	if n := TurnsToCompaction(s); n != nil {
		return max(0, float64(*n))
	}
	left := TokensToCompaction(s)
	if left == nil || len(s.Turns) == 0 || *s.Usage.Tokens <= 0 {
		return 0
	}
	perTurn := float64(*s.Usage.Tokens) / float64(len(s.Turns))
	return max(0, math.Round(float64(*left)/perTurn))
}

// spendRun adds one run's cost: dollars when it was priced, else its tokens as unpriced.
func spendRun(s *State, usd *float64, spent int64) {
	if usd != nil {
		s.Money.JudgeUSD += *usd
		return
	}
	s.Money.JudgeUnpriced += spent
}
