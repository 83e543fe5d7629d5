package state

import (
	"math"
	"strconv"
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

// MoneyView is the net the header and the band show. Priced: every figure in dollars; else tokens, and
// Basis says why. Losing: the judges cost more than the savings are worth.
type MoneyView struct {
	Priced      bool    `json:"priced"`
	SavedUSD    float64 `json:"savedUsd"`
	JudgeUSD    float64 `json:"judgeUsd"`
	NetUSD      float64 `json:"netUsd"`
	SavedTokens int64   `json:"savedTokens"`
	JudgeTokens int64   `json:"judgeTokens"`
	NetTokens   int64   `json:"netTokens"`
	Losing      bool    `json:"losing"`
	Text        string  `json:"text"`
	Basis       string  `json:"basis"`
}

// MoneyOf is the session's net, or nil while nothing was spent or saved.
func MoneyOf(s *State) *MoneyView {
	m := &s.Money
	judgeTokens := s.Judge.Spent + s.Process.Spent
	if judgeTokens == 0 && m.JudgeUSD == 0 && m.SavedReads <= 0 {
		return nil
	}
	if m.Priced && m.JudgeUnpriced == 0 {
		saved := roundUSD(max(0, m.SavedReads) * m.CacheRead / 1e6)
		judge := roundUSD(m.JudgeUSD)
		net := roundUSD(saved - judge)
		return &MoneyView{
			Priced: true, SavedUSD: saved, JudgeUSD: judge, NetUSD: net, Losing: net < 0,
			Text:  "saved " + USD(saved) + " · judge " + USD(judge) + " · net " + signed(net, USD),
			Basis: "dollars at " + m.Model + "'s prices: savings as cache reads until compaction",
		}
	}
	saved := int64(math.Round(max(0, m.SavedReads)))
	net := saved - judgeTokens
	basis := "tokens: no price for " + m.Model
	if m.Model == "" {
		basis = "tokens: the session's model is not known"
	}
	return &MoneyView{
		SavedTokens: saved, JudgeTokens: judgeTokens, NetTokens: net, Losing: net < 0,
		Text:  "saved ~" + Kilo(float64(saved)) + " tokens · judge " + Kilo(float64(judgeTokens)) + " tokens · net " + signed(float64(net), tokensText),
		Basis: basis,
	}
}

// roundUSD is dollars to six decimals, as the impact report rounds money.
func roundUSD(x float64) float64 { return math.Round(x*1e6)/1e6 + 0 }

// USD is a dollar figure as a person reads it: cents, or four decimals under a cent.
func USD(x float64) string {
	x = math.Abs(x)
	switch {
	case x == 0:
		return "$0"
	case x < 0.01:
		return "$" + strconv.FormatFloat(x, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(x, 'f', 2, 64)
}

func tokensText(x float64) string { return Kilo(math.Abs(x)) + " tokens" }

// signed is a figure with its sign in front: +$0.31, −$0.05.
func signed(x float64, format func(float64) string) string {
	if x < 0 {
		return "−" + format(x)
	}
	return "+" + format(x)
}
