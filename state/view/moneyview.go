package view

import (
	"math"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The money line the header and the band show: spend and savings in one unit, as state.Money
// reckons them (see protocol.md, "Spend and savings").

// MoneyView is the net the header and the band show, every figure measured: Saved is the cache reads the
// fixes spared on turns that happened, Judge the judges' forks, Instructions the texts saverd put into the
// context, Net the first less the other two. Priced: every figure in dollars; else tokens, and Basis says
// why. Losing: the spend came to more than the savings. Projected is apart and in no other figure: what
// the fixes still in force would spare by compaction at the recent pace.
type MoneyView struct {
	Priced             bool    `json:"priced"`
	SavedUSD           float64 `json:"savedUsd"`
	JudgeUSD           float64 `json:"judgeUsd"`
	InstructionsUSD    float64 `json:"instructionsUsd"`
	NetUSD             float64 `json:"netUsd"`
	SavedTokens        int64   `json:"savedTokens"`
	JudgeTokens        int64   `json:"judgeTokens"`
	InstructionsTokens int64   `json:"instructionsTokens"`
	NetTokens          int64   `json:"netTokens"`
	Losing             bool    `json:"losing"`
	Text               string  `json:"text"`
	// Parts are Text's figures, for a line short of room to tell it shorter (the band).
	Parts           MoneyParts `json:"-"`
	Basis           string     `json:"basis"`
	ProjectedUSD    float64    `json:"projectedUsd"`
	ProjectedTokens int64      `json:"projectedTokens"`
	// Projection is the projection in words (`on pace for ~$0.04 more by compaction`), "" when there is none.
	Projection string `json:"projection"`
}

// MoneyParts are the money line's figures as written: saved, judge, the instructions' share ("" when
// saverd sent none) and the net.
type MoneyParts struct{ Saved, Judge, Instructions, Net string }

// text is the money line: the figures there are, in order.
func (p MoneyParts) text() string {
	figs := []string{p.Saved, p.Judge}
	if p.Instructions != "" {
		figs = append(figs, p.Instructions)
	}
	return strings.Join(append(figs, p.Net), " · ")
}

// The basis of each kind of figure, as the pane and protocol.md say it.
const (
	measuredBasis = "savings are the cache reads the fixes spared on turns that happened; spend is the judges' forks and the instructions saverd sent"
)

// MoneyOf is the session's net, or nil while nothing was spent, saved or projected.
func MoneyOf(s *state.State) *MoneyView {
	m := &s.Money
	judgeTokens := s.Judge.Spent + s.Process.Spent
	projected := state.Projected(s)
	if judgeTokens == 0 && m.JudgeUSD == 0 && m.Saved.Tokens <= 0 && m.Injected.Tokens <= 0 && projected <= 0 {
		return nil
	}
	if m.Priced && m.JudgeUnpriced == 0 && m.Saved.Unpriced == 0 && m.Injected.Unpriced == 0 {
		saved := roundUSD(max(0, m.Saved.USD))
		judge := roundUSD(m.JudgeUSD)
		instr := roundUSD(m.Injected.USD)
		net := roundUSD(saved - judge - instr)
		v := &MoneyView{
			Priced: true, SavedUSD: saved, JudgeUSD: judge, InstructionsUSD: instr, NetUSD: net, Losing: net < 0,
			Parts: MoneyParts{Saved: "saved " + USD(saved), Judge: "judge " + USD(judge),
				Instructions: instructionsPart(instr, USD), Net: "net " + signed(net, USD)},
			Basis: "dollars at " + m.Model + "'s prices: " + measuredBasis,
		}
		v.Text = v.Parts.text()
		if projected > 0 {
			v.ProjectedUSD = roundUSD(projected * m.CacheRead / 1e6)
			v.ProjectedTokens = int64(math.Round(projected))
			v.Projection = "on pace for ~" + USD(v.ProjectedUSD) + " more by compaction"
		}
		return v
	}
	saved := int64(math.Round(max(0, m.Saved.Tokens)))
	instr := int64(math.Round(m.Injected.Tokens))
	net := saved - judgeTokens - instr
	basis := "tokens: no price for " + m.Model
	if m.Model == "" {
		basis = "tokens: the session's model is not known"
	}
	v := &MoneyView{
		SavedTokens: saved, JudgeTokens: judgeTokens, InstructionsTokens: instr, NetTokens: net, Losing: net < 0,
		Parts: MoneyParts{Saved: "saved ~" + jstext.Kilo(float64(saved)) + " tokens", Judge: "judge " + jstext.Kilo(float64(judgeTokens)) + " tokens",
			Instructions: instructionsPart(float64(instr), tokensText), Net: "net " + signed(float64(net), tokensText)},
		Basis: basis,
	}
	v.Text = v.Parts.text()
	if projected > 0 {
		v.ProjectedTokens = int64(math.Round(projected))
		v.Projection = "on pace for ~" + tokensText(projected) + " more by compaction"
	}
	return v
}

// instructionsPart is the instructions' share of the spend in the money line, "" when saverd sent none.
func instructionsPart(x float64, format func(float64) string) string {
	if x <= 0 {
		return ""
	}
	return "instructions " + format(x)
}

// LosingText is what the pane and the band add to a net below zero: who cost more than it saved.
func LosingText(m *MoneyView) string {
	if m.InstructionsUSD > 0 || m.InstructionsTokens > 0 {
		return "the judge and the instructions cost more than they saved"
	}
	return "the judge cost more than it saved"
}

// roundUSD is dollars to six decimals, as the impact report rounds money.
func roundUSD(x float64) float64 { return math.Round(x*1e6)/1e6 + 0 }

// USD is a dollar figure as a person reads it: cents, or four decimals under a cent, and under a hundredth
// of a cent the figure to the millionth it is rounded to ($0.000006): never a "$0.0000" beside a saving
// the toast just told, which reads as nothing.
func USD(x float64) string {
	x = math.Abs(x)
	switch {
	case x == 0:
		return "$0"
	case x < 0.0001:
		if r := math.Round(x*1e6) / 1e6; r > 0 {
			return "$" + strconv.FormatFloat(r, 'f', -1, 64)
		}
		return "under $0.000001"
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
