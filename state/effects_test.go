package state

import (
	"reflect"
	"testing"
)

// TestReduceEffects: Reduce says what an action settled, saved, brought back, queued and decided, so a
// caller never compares the state before and after it.
func TestReduceEffects(t *testing.T) {
	const id = "execution:full-suite"
	narrow := func(turn int) Row { return call("r3", "test:npm test -- auth", ClassTest, turn, 10_000, 1_000) }
	cases := []struct {
		name  string
		setup func(t *testing.T) *State
		act   Action
		want  Effects
	}{
		{
			name:  "an unrelated row says nothing",
			setup: func(t *testing.T) *State { return steered(t) },
			act:   AddRow{Row: call("other", "git:git status", ClassGit, 1, 5, 5)},
		},
		{
			name:  "a narrower run settles the fix and saves the difference",
			setup: func(t *testing.T) *State { s := steered(t); Reduce(s, TurnStart{Now: 2}); return s },
			act:   AddRow{Row: narrow(2)},
			want:  Effects{Settled: []string{id}, Saved: Saved{Ms: 40_000, Chars: 5_000}},
		},
		{
			name:  "the whole suite again settles it as ignored",
			setup: func(t *testing.T) *State { s := steered(t); Reduce(s, TurnStart{Now: 2}); return s },
			act:   AddRow{Row: call("r3", suiteKey, ClassTest, 2, 55_000, 6_000)},
			want:  Effects{Settled: []string{id}},
		},
		{
			name: "a relapse brings the card back with the credit it took",
			setup: func(t *testing.T) *State {
				s := steered(t)
				Reduce(s, TurnStart{Now: 2})
				Reduce(s, AddRow{Row: narrow(2)})
				Reduce(s, TurnStart{Now: 3})
				return s
			},
			act: AddRow{Row: call("r4", suiteKey, ClassTest, 3, 55_000, 6_000)},
			want: Effects{Requeued: []Requeue{{ID: id, Credit: Saved{Ms: 40_000, Chars: 5_000}}},
				Saved: Saved{Ms: -40_000, Chars: -5_000}},
		},
		{
			name: "a fix that outlives its turns is credited its baseline",
			setup: func(t *testing.T) *State {
				s := steered(t)
				Reduce(s, TurnComplete{Stat: TurnStat{At: 15}})
				Reduce(s, TurnStart{Now: 20})
				Reduce(s, TurnComplete{Stat: TurnStat{At: 25}})
				Reduce(s, TurnStart{Now: 30})
				return s
			},
			act:  TurnComplete{Stat: TurnStat{At: 35}},
			want: Effects{Settled: []string{id}, Saved: Saved{Ms: 50_000, Chars: 6_000}},
		},
		{
			name:  "a decision that takes",
			setup: func(t *testing.T) *State { return judged(t) },
			act:   Decide{PatternID: id, Choice: Keep},
			want:  Effects{Decided: id},
		},
		{
			name:  "a fix with a blank note decides nothing",
			setup: func(t *testing.T) *State { return judged(t) },
			act:   Decide{PatternID: id, Choice: Steer, Text: Ptr("  ")},
		},
		{
			name:  "a decision on no pattern",
			setup: func(t *testing.T) *State { return judged(t) },
			act:   Decide{PatternID: "execution:none", Choice: Kill},
		},
		{
			name:  "a judge run queues what it found",
			setup: func(*testing.T) *State { return New("/w", 200_000) },
			act:   JudgeDone{Patterns: []Pattern{suitePattern()}, Fresh: []string{id}, Dropped: []string{}},
			want:  Effects{Queued: []string{id}},
		},
		{
			name: "a judge run reporting a settled habit again brings it back",
			setup: func(t *testing.T) *State {
				s := steered(t)
				Reduce(s, TurnStart{Now: 2})
				Reduce(s, AddRow{Row: narrow(2)})
				return s
			},
			act: JudgeDone{Patterns: []Pattern{func() Pattern {
				p := suitePattern()
				p.Decision = Ptr(Steer)
				return p
			}()}, Recurred: []string{id}, Dropped: []string{}},
			want: Effects{Queued: []string{id}, Requeued: []Requeue{{ID: id, Credit: Saved{Ms: 40_000, Chars: 5_000}}}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.setup(t)
			if got := Reduce(s, c.act); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("effects = %+v, want %+v", got, c.want)
			}
		})
	}
}
