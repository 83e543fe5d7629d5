package view

import (
	"math"
	"strconv"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The money line the header and the band show: spend and savings in one unit, as state.Money
// reckons them (see protocol.md, "Spend and savings").

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
func MoneyOf(s *state.State) *MoneyView {
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
		Text:  "saved ~" + jstext.Kilo(float64(saved)) + " tokens · judge " + jstext.Kilo(float64(judgeTokens)) + " tokens · net " + signed(float64(net), tokensText),
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

func tokensText(x float64) string { return jstext.Kilo(math.Abs(x)) + " tokens" }

// signed is a figure with its sign in front: +$0.31, −$0.05.
func signed(x float64, format func(float64) string) string {
	if x < 0 {
		return "−" + format(x)
	}
	return "+" + format(x)
}
