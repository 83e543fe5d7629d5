package state_test

import (
	"reflect"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// TestReduceEffects: state.Reduce says what an action settled, saved, brought back, queued and decided, so a
// caller never compares the state before and after it.
func TestReduceEffects(t *testing.T) {
	const id = "execution:full-suite"
	narrow := func(turn int) state.Row {
		return statetest.Call("r3", "test:npm test -- auth", state.ClassTest, turn, 10_000, 1_000)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T) *state.State
		act   state.Action
		want  state.Effects
	}{
		{
			name:  "an unrelated row says nothing",
			setup: func(t *testing.T) *state.State { return steered(t) },
			act:   state.AddRow{Row: statetest.Call("other", "git:git status", state.ClassGit, 1, 5, 5)},
		},
		{
			name:  "a narrower run settles the fix and saves the difference",
			setup: func(t *testing.T) *state.State { s := steered(t); state.Reduce(s, state.TurnStart{Now: 2}); return s },
			act:   state.AddRow{Row: narrow(2)},
			want:  state.Effects{Settled: []string{id}, Saved: state.Saved{Ms: 40_000, Chars: 5_000}},
		},
		{
			name:  "the whole suite again settles it as ignored",
			setup: func(t *testing.T) *state.State { s := steered(t); state.Reduce(s, state.TurnStart{Now: 2}); return s },
			act:   state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 55_000, 6_000)},
			want:  state.Effects{Settled: []string{id}},
		},
		{
			name: "a relapse brings the card back with the credit it took",
			setup: func(t *testing.T) *state.State {
				s := steered(t)
				state.Reduce(s, state.TurnStart{Now: 2})
				state.Reduce(s, state.AddRow{Row: narrow(2)})
				state.Reduce(s, state.TurnStart{Now: 3})
				return s
			},
			act: state.AddRow{Row: statetest.Call("r4", statetest.SuiteKey, state.ClassTest, 3, 55_000, 6_000)},
			want: state.Effects{Requeued: []state.Requeue{{ID: id, Credit: state.Saved{Ms: 40_000, Chars: 5_000}}},
				Saved: state.Saved{Ms: -40_000, Chars: -5_000}},
		},
		{
			name: "a fix that outlives its turns is credited its baseline",
			setup: func(t *testing.T) *state.State {
				s := steered(t)
				state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 15}})
				state.Reduce(s, state.TurnStart{Now: 20})
				state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 25}})
				state.Reduce(s, state.TurnStart{Now: 30})
				return s
			},
			act:  state.TurnComplete{Stat: state.TurnStat{At: 35}},
			want: state.Effects{Settled: []string{id}, Saved: state.Saved{Ms: 50_000, Chars: 6_000}},
		},
		{
			name:  "a decision that takes",
			setup: func(t *testing.T) *state.State { return statetest.Judged(t) },
			act:   state.Decide{PatternID: id, Choice: state.Ignore},
			want:  state.Effects{Decided: id},
		},
		{
			name:  "a fix with a blank note decides nothing",
			setup: func(t *testing.T) *state.State { return statetest.Judged(t) },
			act:   state.Decide{PatternID: id, Choice: state.FixWithNote, Text: new("  ")},
		},
		{
			name:  "a decision on no pattern",
			setup: func(t *testing.T) *state.State { return statetest.Judged(t) },
			act:   state.Decide{PatternID: "execution:none", Choice: state.Fix},
		},
		{
			name:  "a judge run queues what it found",
			setup: func(*testing.T) *state.State { return state.New("/w", 200_000) },
			act:   state.JudgeDone{Patterns: []state.Pattern{statetest.SuitePattern()}, Fresh: []string{id}, Dropped: []string{}},
			want:  state.Effects{Queued: []string{id}},
		},
		{
			name: "a judge run reporting a settled habit again brings it back",
			setup: func(t *testing.T) *state.State {
				s := steered(t)
				state.Reduce(s, state.TurnStart{Now: 2})
				state.Reduce(s, state.AddRow{Row: narrow(2)})
				return s
			},
			act: state.JudgeDone{Patterns: []state.Pattern{func() state.Pattern {
				p := statetest.SuitePattern()
				p.Decision = new(state.FixWithNote)
				return p
			}()}, Recurred: []string{id}, Dropped: []string{}},
			want: state.Effects{Queued: []string{id}, Requeued: []state.Requeue{{ID: id, Credit: state.Saved{Ms: 40_000, Chars: 5_000}}}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.setup(t)
			if got := state.Reduce(s, c.act); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("effects = %+v, want %+v", got, c.want)
			}
		})
	}
}
