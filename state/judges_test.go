package state_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestJudgeStateJSON: the two judges are one Go type, and each still writes its own shape, leaving
// `& < >` to the encoder that embeds it.
func TestJudgeStateJSON(t *testing.T) {
	s := state.New("/w", 1)
	s.Judge.Error = new("a<b&c")
	s.Process.Error = new("a<b&c")
	cases := []struct {
		name   string
		v      any
		escape bool
		want   string
	}{
		{"habit", s.Judge, true, `{"lastAtTokens":0,"lastAtTurn":0,"lastAtSeq":0,"lastAtMs":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a\u003cb\u0026c","focus":null,"time":null,"context":null,"last":null}`},
		{"process", s.Process, true, `{"lastAtMs":0,"lastAtSeq":0,"lastAtTurn":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a\u003cb\u0026c","last":null}`},
		{"process unescaped", s.Process, false, `{"lastAtMs":0,"lastAtSeq":0,"lastAtTurn":0,"running":false,"runs":0,"spent":0,"backoff":1,"error":"a<b&c","last":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(c.escape)
			if err := enc.Encode(c.v); err != nil {
				t.Fatal(err)
			}
			if got := string(bytes.TrimSpace(buf.Bytes())); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestSessionFlags: what the daemon remembers of a session beside ContextSaver's state is reduced like
// the rest: a claimed run and whoever asked of it, the open prompt rewrites, the probed agents and the load
// check's one toast. A reset keeps what is still out in the world (a claimed run, an open rewrite) and
// forgets the rest; a clone taken before a change never sees it.
func TestSessionFlags(t *testing.T) {
	type flags struct {
		habitInFlight, habitAsked, processInFlight, spoke bool
		rewrites, probed                                  int
	}
	of := func(s *state.State) flags {
		return flags{s.Judge.InFlight, s.Judge.Asked, s.Process.InFlight, s.LoadCheckSpoke, len(s.Rewrites), len(s.Probed)}
	}
	cases := []struct {
		name string
		acts []state.Action
		want flags
	}{
		{"a claimed habit run", []state.Action{state.JudgeClaim{}}, flags{habitInFlight: true}},
		{"asked of it", []state.Action{state.JudgeClaim{}, state.JudgeAsked{}}, flags{habitInFlight: true, habitAsked: true}},
		{"released, and the ask with it", []state.Action{state.JudgeClaim{}, state.JudgeAsked{}, state.JudgeRelease{}}, flags{}},
		{"a process run is its own", []state.Action{state.JudgeClaim{Kind: state.ProcessJudge}}, flags{processInFlight: true}},
		{"rewrites open and close", []state.Action{state.RewriteOpened{SpawnID: "spawn-1"}, state.RewriteOpened{SpawnID: "spawn-2"}, state.RewriteClosed{SpawnID: "spawn-1"}}, flags{rewrites: 1}},
		{"a probe and a toast", []state.Action{state.LoopProbed{AgentID: "a1"}, state.LoadCheckSpoke{}}, flags{spoke: true, probed: 1}},
		{"a reset keeps what is out in the world", []state.Action{state.JudgeClaim{}, state.JudgeAsked{}, state.JudgeClaim{Kind: state.ProcessJudge},
			state.RewriteOpened{SpawnID: "spawn-1"}, state.LoopProbed{AgentID: "a1"}, state.LoadCheckSpoke{}, state.Reset{}},
			flags{habitInFlight: true, habitAsked: true, processInFlight: true, rewrites: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := state.New("/w", 1)
			for _, a := range c.acts {
				state.Reduce(s, a)
			}
			if got := of(s); got != c.want {
				t.Fatalf("flags = %+v, want %+v", got, c.want)
			}
			clone := s.Clone()
			state.Reduce(s, state.RewriteOpened{SpawnID: "later"})
			state.Reduce(s, state.LoopProbed{AgentID: "later"})
			if clone.Rewrites["later"] || clone.Probed["later"] {
				t.Fatal("a clone saw a change made after it was taken")
			}
		})
	}
}
