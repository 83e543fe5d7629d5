package state_test

import (
	"testing"

	"github.com/saverd/saverd/state"
)

func TestBudgetOf(t *testing.T) {
	cases := []struct {
		name          string
		share         float64
		turns         []int64 // each turn's billed tokens
		judge, proc   int64
		allowed, left int64
		over          bool
	}{
		{name: "nothing measured yet is no cap", share: 0.05, judge: 20_000},
		{name: "within it", share: 0.05, turns: []int64{100_000, 100_000}, judge: 4_000, allowed: 10_000, left: 6_000},
		{name: "both judges count", share: 0.05, turns: []int64{100_000, 100_000}, judge: 4_000, proc: 6_000, allowed: 10_000, over: true},
		{name: "past it", share: 0.05, turns: []int64{100_000}, judge: 318_200, allowed: 5_000, over: true},
		{name: "zero is always spent", share: 0, over: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := state.New("/w", 200_000)
			state.Reduce(s, state.SetBudget{Share: c.share})
			for _, n := range c.turns {
				state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Input: n}})
			}
			s.Judge.Spent, s.Process.Spent = c.judge, c.proc
			b := state.BudgetOf(s)
			if b.Allowed != c.allowed || b.Left != c.left || b.Over != c.over || b.Spent != c.judge+c.proc {
				t.Fatalf("= %+v, want allowed %d left %d over %v", b, c.allowed, c.left, c.over)
			}
		})
	}
}
