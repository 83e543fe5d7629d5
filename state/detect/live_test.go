package detect

import (
	"reflect"
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
)

// liveCalls is what a live session keeps of s's calls (LiveCall), from the whole inputs the transcript
// would give.
func liveCalls(s *session) map[string]Call {
	out := map[string]Call{}
	for i := range s.rows {
		r := &s.rows[i]
		whole := s.calls[r.ID]
		if c, ok := LiveCall(r, whole.Command, func() string { return whole.Input }); ok {
			out[r.ID] = c
		}
	}
	return out
}

// TestLiveCallsSuffice: the detectors make the same findings from what a live session keeps of each
// call as from every call's whole input, on every session TestDetectors weighs and on commands whose
// key leaves out what tells them apart (a pipe that filters a listing, a redirect that writes, a chain).
func TestLiveCallsSuffice(t *testing.T) {
	cases := append(detectorCases(),
		detectorCase{"a listing filtered by a pipe", func(s *session) {
			s.bash("find . -type f | grep -v node_modules", 30_000)
		}, nil},
		detectorCase{"a build, a redirect that writes, a build", func(s *session) {
			s.bash("npm run build", 900)
			s.bash("npm run build > build.log", 0)
			s.bash("npm run build", 900)
		}, nil},
		detectorCase{"a chain that edits between two builds", func(s *session) {
			s.bash("npm run build", 900)
			s.bash("git status && sed -i s/a/b/ src/a.ts", 0)
			s.bash("npm run build", 900)
		}, nil},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession()
			c.build(s)
			whole := Run(s.session())
			live := s.session()
			live.Calls = liveCalls(s)
			if got := Run(live); !reflect.DeepEqual(got, whole) {
				t.Errorf("live findings %q, whole-input findings %q", ids(got), ids(whole))
			}
		})
	}
	t.Run("a command its key says whole is not kept", func(t *testing.T) {
		s := newSession()
		id := s.bash("npm run build", 900)
		if c, ok := LiveCall(s.rowOf(id), "npm run build", nil); ok {
			t.Errorf("kept %+v", c)
		}
	})
}

// TestNews: at a turn's end the person is shown what is new since the last detection, never what they
// kept, never a behaviour the registry names under another id, and a behaviour kept in a previous
// session only as strong as the judge's template asks.
func TestNews(t *testing.T) {
	builds := func(n int) (*state.State, []Finding) {
		s := newSession()
		for range n {
			s.bash("npm run build", 900, lasting(20_000))
		}
		st := state.New(s.cwd, 200_000)
		for _, r := range s.rows {
			state.Reduce(st, state.AddRow{Row: r})
		}
		return st, Run(s.session())
	}
	pattern := func(id string, sig *state.Signature, decision, last *state.Choice) state.Pattern {
		p := state.FromStored(state.StoredPattern{ID: id, Category: "execution", Kind: "Claude keeps building",
			Why: "w", Alternative: "a", Confidence: 0.9, Signature: sig, LastDecision: last})
		p.Decision = decision
		return p
	}
	build := &state.Signature{Tool: "Bash", Key: "build:npm run build"}
	const id = "execution:rerun-npm-run-build"
	cases := []struct {
		name  string
		runs  int
		edit  func(s *state.State)
		fresh bool
	}{
		{"a first detection", 4, nil, true},
		{"rows a detection already read", 4, func(s *state.State) { s.Detections.Through = s.Seq }, false},
		{"a row past the last detection", 4, func(s *state.State) { s.Detections.Through = s.Seq - 1 }, true},
		{"kept in this session", 4, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern(id, build, new(state.Ignore), nil))
		}, false},
		{"kept in this session under another id, same signature", 4, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern("execution:builds", build, new(state.Ignore), nil))
		}, false},
		{"a judge's card of the same behaviour", 4, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern("execution:builds", build, nil, nil))
		}, false},
		{"fixed in this session: merged, not carded again", 4, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern(id, build, new(state.Fix), nil))
		}, true},
		{"kept in a previous session, twice", 2, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern(id, build, nil, new(state.Ignore)))
		}, false},
		{"kept in a previous session, four times", 4, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern(id, build, nil, new(state.Ignore)))
		}, true},
		{"fixed in a previous session", 2, func(s *state.State) {
			s.Patterns = append(s.Patterns, pattern(id, build, nil, new(state.Fix)))
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, found := builds(c.runs)
			if len(found) != 1 || found[0].ID != id {
				t.Fatalf("findings %q", ids(found))
			}
			if c.edit != nil {
				c.edit(st)
			}
			news := News(st, found)
			if got := len(news) == 1 && news[0].ID == id; got != c.fresh || len(news) > 1 {
				t.Errorf("news %d findings, want the finding: %v", len(news), c.fresh)
			}
		})
	}
}

// TestCited: every row the findings cite, once, in the order they first cite it.
func TestCited(t *testing.T) {
	fs := []Finding{
		{Finding: state.Finding{Evidence: []string{"r1", "r2"}}},
		{Finding: state.Finding{Evidence: []string{"r2", "r5"}}},
	}
	if got := Cited(fs); !slices.Equal(got, []string{"r1", "r2", "r5"}) {
		t.Errorf("cited %q", got)
	}
	if got := Cited(nil); len(got) != 0 {
		t.Errorf("cited %q of none", got)
	}
}
