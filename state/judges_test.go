package state

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJudgeStateJSON: the two judges are one Go type, and each still writes its own shape, leaving
// `& < >` to the encoder that embeds it.
func TestJudgeStateJSON(t *testing.T) {
	s := New("/w", 1)
	s.Judge.Error = Ptr("a<b&c")
	s.Process.Error = Ptr("a<b&c")
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

// TestSessionFlags: what the daemon remembers of a session beside the plugin's state is reduced like
// the rest: a claimed run and whoever asked of it, the open spawns, the probed agents and the load
// check's one toast. A reset keeps what is still out in the world (a claimed run, an open spawn) and
// forgets the rest; a clone taken before a change never sees it.
func TestSessionFlags(t *testing.T) {
	type flags struct {
		habitInFlight, habitAsked, processInFlight, spoke bool
		spawns, probed                                    int
	}
	of := func(s *State) flags {
		return flags{s.Judge.InFlight, s.Judge.Asked, s.Process.InFlight, s.LoadCheckSpoke, len(s.Spawns), len(s.Probed)}
	}
	cases := []struct {
		name string
		acts []Action
		want flags
	}{
		{"a claimed habit run", []Action{JudgeClaim{}}, flags{habitInFlight: true}},
		{"asked of it", []Action{JudgeClaim{}, JudgeAsked{}}, flags{habitInFlight: true, habitAsked: true}},
		{"released, and the ask with it", []Action{JudgeClaim{}, JudgeAsked{}, JudgeRelease{}}, flags{}},
		{"a process run is its own", []Action{JudgeClaim{Kind: ProcessJudge}}, flags{processInFlight: true}},
		{"spawns open and close", []Action{SpawnOpened{SpawnID: "spawn-1"}, SpawnOpened{SpawnID: "spawn-2"}, SpawnClosed{SpawnID: "spawn-1"}}, flags{spawns: 1}},
		{"a probe and a toast", []Action{LoopProbed{AgentID: "a1"}, LoadCheckSpoke{}}, flags{spoke: true, probed: 1}},
		{"a reset keeps what is out in the world", []Action{JudgeClaim{}, JudgeAsked{}, JudgeClaim{Kind: ProcessJudge},
			SpawnOpened{SpawnID: "spawn-1"}, LoopProbed{AgentID: "a1"}, LoadCheckSpoke{}, Reset{}},
			flags{habitInFlight: true, habitAsked: true, processInFlight: true, spawns: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New("/w", 1)
			for _, a := range c.acts {
				Reduce(s, a)
			}
			if got := of(s); got != c.want {
				t.Fatalf("flags = %+v, want %+v", got, c.want)
			}
			clone := s.Clone()
			Reduce(s, SpawnOpened{SpawnID: "later"})
			Reduce(s, LoopProbed{AgentID: "later"})
			if clone.Spawns["later"] || clone.Probed["later"] {
				t.Fatal("a clone saw a change made after it was taken")
			}
		})
	}
}
