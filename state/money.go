package state

import (
	"math"
)

// Spend and savings in one unit. A judge or process run costs what its fork was billed: the fork's own
// dollar figure when it reports one, else its usage by kind at the model's price (a fork mostly reads the
// parent's cache, so most of its tokens are cache reads and cost a tenth of input). A credited saving is
// context a fixed habit no longer adds, and context is re-read on every later turn until compaction: it
// is valued as that many cache-read tokens (its characters over CharsPerToken, times the turns left to
// compaction when it was credited — at the recent pace, else at the average fill per turn so far — at
// least one), at the model's cache-read price. The wall clock it
// saved is shown beside the money, never priced. Where no price is known the figures are tokens, and say
// so. See protocol.md, "Spend and savings".

// CharsPerToken is the characters one token is taken to hold, as the rest of the ledger reckons.
const CharsPerToken = 4

// Money is what the session knows to price its judges and its savings.
type Money struct {
	Model         string  // the session's model as the host named it; "" unknown
	CacheRead     float64 // USD per million cache-read tokens of Model
	Priced        bool    // Model has a price
	JudgeUSD      float64 // the priced judge and process runs
	JudgeUnpriced int64   // what the runs with no price spent, in tokens (as judge.SpentOf counts)
	SavedReads    float64 // cache-read tokens the credited savings spare: tokens × the turns each is re-read
}

// Credit is what one pattern's instruction was credited: wall time, characters, and the cache reads
// those characters spare.
type Credit struct {
	Ms, Chars, Reads float64
}

// rereadsOf is how many times context freed now would have been read again: the turns left to
// compaction at the recent pace; before the pace is known, the tokens left at the session's average fill
// per turn so far; at least one (this turn's own read).
func rereadsOf(s *State) float64 {
	if n := TurnsToCompaction(s); n != nil {
		return max(1, float64(*n))
	}
	left := TokensToCompaction(s)
	if left == nil || len(s.Turns) == 0 || *s.Usage.Tokens <= 0 {
		return 1
	}
	perTurn := float64(*s.Usage.Tokens) / float64(len(s.Turns))
	return max(1, math.Round(float64(*left)/perTurn))
}

// spendRun adds one run's cost: dollars when it was priced, else its tokens as unpriced.
func spendRun(s *State, usd *float64, spent int64) {
	if usd != nil {
		s.Money.JudgeUSD += *usd
		return
	}
	s.Money.JudgeUnpriced += spent
}
