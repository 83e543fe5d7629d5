package textview

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/state/view"
)

// pieces are the awkward bits random model text is made of.
var pieces = []string{
	"bun", "test", "src/auth/refresh.ts", "·", "…", "日本語", "テキスト", "한국어", "😀", "👩‍💻", "e\u0301",
	"\u200b", "\t", "\n", "\r\n", "\x1b[31m", "\x00", "\u0085", "\xff", "\xe6\x97", " ", "  ",
	strings.Repeat("x", 130), strings.Repeat("長", 70), "ｆｕｌｌ", "–", "\u00a0",
}

func randText(r *rand.Rand, words int) string {
	var b strings.Builder
	for range r.IntN(words + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
		if r.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func randFloat(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1 - 2*r.IntN(2))
	case 2:
		return -r.Float64() * 1e6
	case 3:
		return r.Float64() * 1e18
	}
	return r.Float64() * 100
}

func randPtr(r *rand.Rand, text int) *string {
	if r.IntN(3) == 0 {
		return nil
	}
	return new(randText(r, text))
}

func randPane(r *rand.Rand) view.PaneModel {
	var m view.PaneModel
	h := &m.Header
	if r.IntN(4) > 0 {
		h.Percent = new(randFloat(r))
		h.TokensToCompaction = new(r.Int64N(2e9) - 1e6)
		h.TurnsToCompaction = new(r.Int64N(500) - 5)
	}
	for range r.IntN(14) {
		h.Trend = append(h.Trend, randFloat(r))
	}
	for _, sinks := range []**state.Sinks{&h.Time, &h.Context} {
		if r.IntN(3) > 0 {
			s := &state.Sinks{Total: r.Int64N(1e12) - 10}
			for range r.IntN(5) {
				s.Sinks = append(s.Sinks, state.Sink{Label: randText(r, 3), Amount: r.Int64N(1e12) - 10, Count: r.IntN(100)})
			}
			*sinks = s
		}
	}
	h.JudgeTime, h.JudgeContext = randPtr(r, 30), randPtr(r, 30)
	h.JudgeRuns, h.JudgeTokens, h.JudgeRunning = r.IntN(5)-1, r.Int64N(1e9), r.IntN(2) == 0
	h.SavedPct, h.SavedMs = randFloat(r), randFloat(r)*1e5
	for n := range r.IntN(5) {
		c := view.Card{PatternID: randText(r, 2), N: n + 1, Category: state.Category(randText(r, 1)), Kind: randText(r, 25),
			Stats: randText(r, 12), Why: randText(r, 40), Fix: randText(r, 40), Lean: randPtr(r, 30)}
		for range r.IntN(4) {
			c.Evidence = append(c.Evidence, view.Evidence{Turn: r.IntN(1000), What: randText(r, 12), Agent: randPtr(r, 1),
				Ms: r.Int64N(1e9) - 100, Chars: r.Int64N(1e7), Head: randText(r, 20)})
		}
		m.Wasters = append(m.Wasters, c)
		if r.IntN(3) == 0 {
			m.Steering = new(c.PatternID)
		}
	}
	m.SteerDraft = randPtr(r, 20)
	choices := []state.Choice{state.Ignore, state.FixWithNote, state.Fix, "odd\nchoice"}
	for range r.IntN(5) {
		d := view.DecidedRow{Choice: choices[r.IntN(len(choices))], Kind: randText(r, 20), Settled: r.IntN(2) == 0,
			Instruction: randPtr(r, 30), Ignored: r.IntN(4), Sent: r.IntN(4)}
		if r.IntN(2) == 0 {
			d.SavedPct = new(randFloat(r))
		}
		m.Decided = append(m.Decided, d)
	}
	for range r.IntN(4) {
		m.Artifacts = append(m.Artifacts, rules.Artifact{Kind: state.ArtifactKind(randText(r, 2)), Title: randText(r, 15),
			Path: "/home/" + randText(r, 10), SavingPct: randFloat(r), Mode: randText(r, 1)})
	}
	return m
}

func randBand(r *rand.Rand) view.BandModel {
	states := []string{view.BandDied, view.BandChecking, view.BandFound, view.BandSaved, view.BandWatching, "?"}
	ends := []state.TurnEnd{state.EndError, state.EndRefusal, state.EndAnswer}
	m := view.BandModel{State: states[r.IntN(len(states))], Fresh: r.IntN(50), CostPct: randFloat(r), CostMs: randFloat(r) * 1e4,
		SavedPct: randFloat(r), SavedMs: randFloat(r) * 1e4, Calls: r.IntN(1e6), PaneOpen: r.IntN(2) == 0}
	if r.IntN(2) == 0 {
		m.Died = &ends[r.IntN(len(ends))]
	}
	if r.IntN(2) == 0 {
		m.Running = &view.BandRunning{Name: randText(r, 4), Loops: r.IntN(9), Calls: r.IntN(999), Label: randPtr(r, 4)}
	}
	return m
}

// TestNoLineExceedsTheWidth draws thousands of random models at random widths: every line stays inside
// the width (the pane's at least MinWidth), is valid UTF-8 and carries no control character.
func TestNoLineExceedsTheWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 800 {
		w := r.IntN(170) - 5
		pm, bm := randPane(r), randBand(r)
		pane := Pane(pm, w)
		checkLines(t, "pane", pane, max(w, MinWidth))
		if Pane(pm, w) != pane {
			t.Fatalf("case %d: pane not deterministic", i)
		}
		band := Band(bm, w)
		checkLines(t, "band", band, max(w, 0))
		if strings.Contains(band, "\n") {
			t.Fatalf("case %d: band is more than one line: %q", i, band)
		}
		if t.Failed() {
			t.Fatalf("case %d (width %d) failed", i, w)
		}
	}
}

func FuzzPane(f *testing.F) {
	f.Add("Claude keeps running the suite", "the suite ran three times", "bun test", "212 pass", 40)
	f.Add("日本語😀\x1b[0m", "\xff\xfe", "a\u0301\u200d", "\n\n", 7)
	f.Fuzz(func(t *testing.T, kind, why, what, head string, w int) {
		m := fullPane()
		m.Wasters[0].Kind, m.Wasters[0].Why, m.Wasters[0].Evidence[0].What, m.Wasters[0].Evidence[0].Head = kind, why, what, head
		m.Decided[1].Instruction = &why
		m.Artifacts[0].Path = head
		w = w % 500
		checkLines(t, "pane", Pane(m, w), max(w, MinWidth))
		b := view.BandModel{State: view.BandFound, Fresh: 2, Running: &view.BandRunning{Name: kind, Label: &head}}
		checkLines(t, "band", Band(b, w), max(w, 0))
	})
}
