package session

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
	"github.com/saverd/saverd/textview"
)

// fakePrices prices one model, "claude-test": $3 input, $15 output, $3.75 cache writes, $0.30 cache reads.
type fakePrices struct{}

func (fakePrices) Cost(model string, _ time.Time, u state.Tokens) (float64, bool) {
	if model != "claude-test" {
		return 0, false
	}
	return (float64(u.Input)*3 + float64(u.Output)*15 + float64(u.CacheCreate)*3.75 + float64(u.CacheRead)*0.30) / 1e6, true
}

func (fakePrices) CacheRead(model string, _ time.Time) (float64, bool) {
	if model != "claude-test" {
		return 0, false
	}
	return 0.30, true
}

func (fakePrices) CacheWrite(model string, _ time.Time) (float64, bool) {
	if model != "claude-test" {
		return 0, false
	}
	return 3.75, true
}

// TestJudgeRunsPriced: a judge run is priced at the session model's price by kind — the cache read it
// mostly is costs a tenth of input — or at the fork's own costUsd when it reports one; with no price the
// pane says tokens, and says why.
func TestJudgeRunsPriced(t *testing.T) {
	warm := judge.ForkUsage{InputTokens: 2_000, OutputTokens: 1_000, CacheReadInputTokens: 300_000}
	cases := []struct {
		name  string
		model string
		res   *ForkResult
		judge float64 // JudgeUSD after the run
		net   string  // the pane's Net row
	}{
		{name: "a warm fork at the table's price", model: "claude-test", res: withUsage(reply(), warm, nil), judge: 0.111,
			net: "Net      saved $0 · judge $0.11 · net −$0.11 · the judge cost more than it saved"},
		{name: "the fork's own figure wins", model: "claude-test", res: withUsage(reply(), warm, new(0.05)), judge: 0.05,
			net: "Net      saved $0 · judge $0.05 · net −$0.05 · the judge cost more than it saved"},
		{name: "no price for the model", model: "local-llm", res: withUsage(reply(), warm, nil),
			net: "Net      saved ~0 tokens · judge 3k tokens · net −3k tokens · the judge cost more than it saved · tokens: no price for local-llm"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarnessWith(t, Options{Synchronous: true, Prices: fakePrices{}}, true, nil)
			h.twelve()
			h.turnComplete(map[string]any{"at": 15_000, "usage": map[string]any{"model": c.model, "input_tokens": 40_000}})
			h.turnStart(16_000)
			h.host.queue(c.res)
			h.saver("check")
			h.srv.Quiesce()
			var pane view.PaneModel
			h.callInto("view.pane", map[string]any{"sessionId": "s"}, &pane)
			if m := pane.Header.Money; m == nil || (c.judge != 0) != m.Priced || m.JudgeUSD != c.judge {
				t.Fatalf("money = %+v, want judge $%v", m, c.judge)
			}
			var text struct{ Text string }
			h.callInto("view.text", map[string]any{"sessionId": "s", "view": "pane", "width": 160}, &text)
			if !strings.Contains(text.Text, c.net+"\n") {
				t.Fatalf("pane has no %q:\n%s", c.net, text.Text)
			}
		})
	}
}

// TestFailedForkBilled: a fork that failed after it spent (a SpentError: claude -p's error_max_turns,
// a Codex turn that failed) fails the check in its own words and is billed all the same, at the price of
// the model it ran on; a debug session's log says why and what it used, as for a run that answered.
func TestFailedForkBilled(t *testing.T) {
	h := newHarnessWith(t, Options{Synchronous: true, Prices: fakePrices{}}, true, map[string]any{"debug": true})
	h.twelve()
	h.turnComplete(map[string]any{"at": 15_000, "usage": map[string]any{"model": "claude-test", "input_tokens": 40_000}})
	h.turnStart(16_000)
	h.host.queue(&SpentError{Err: errors.New("the fork failed (error_max_turns)"),
		Spent: ForkResult{Usage: judge.ForkUsage{InputTokens: 1000, OutputTokens: 100, CacheReadInputTokens: 10_000}}})
	h.saver("check")
	h.srv.Quiesce()
	if toasts := h.host.texts(NotifyToast); !slices.Contains(toasts, "ContextSaver: check failed — the fork failed (error_max_turns)") {
		t.Fatalf("toasts %q", toasts)
	}
	var pane view.PaneModel
	h.callInto("view.pane", map[string]any{"sessionId": "s"}, &pane)
	// 1000×3 + 100×15 + 10k×0.30 = $0.0075.
	if m := pane.Header.Money; m == nil || !m.Priced || m.JudgeUSD != 0.0075 {
		t.Fatalf("money = %+v, want the failed fork's $0.0075", m)
	}
	logs := h.host.texts(NotifyLog)
	if !slices.Contains(logs, "ContextSaver judge: failed — the fork failed (error_max_turns) · from /saver check") ||
		!slices.Contains(logs, "judge usage: in 1000 · out 100 · cache read 10000 · cache create 0") {
		t.Fatalf("logs %q, want why and the usage", logs)
	}
}

func withUsage(r *ForkResult, u judge.ForkUsage, cost *float64) *ForkResult {
	r.Usage, r.CostUSD = u, cost
	return r
}

// TestNetAfterASavingSettles: a settled fix saves nothing when it settles; each later main-loop turn adds
// its avoided tokens as cache reads at the turn's price; the instruction the fix sent is spend beside the
// judge; the band and the header show the measured net, the projection apart; a relapse takes the
// saving back out of it.
func TestNetAfterASavingSettles(t *testing.T) {
	const note = "run only the auth tests"
	h := fixedWithNote(t, note)
	h.turnComplete(map[string]any{"at": 17_000})
	h.turnStart(18_000)
	sent := h.prompt(18_001, "next", "composer")
	h.tool(19_000, ev("Bash", "command", "bun test auth"), map[string]any{"text": "3 pass"})
	var band view.BandModel
	h.callInto("view.band", map[string]any{"sessionId": "s"}, &band)
	// The run: 100×3 + 100×15 + 10k×0.30 = $0.0048. The note: written once at $3.75 a million.
	instr := float64(jstext.Len16(sent[0])) / 4 * 3.75 / 1e6
	if len(sent) != 1 || band.Money == nil || band.Money.SavedUSD != 0 || band.Money.JudgeUSD != 0.0048 || math.Abs(band.Money.InstructionsUSD-instr) > 1e-6 {
		t.Fatalf("band money = %+v, sent %q", band.Money, sent)
	}
	// The turn ends: it re-read none of what the fix spared (its requests were already made); the next
	// turn re-reads 4500 chars' 1125 tokens at $0.30 a million, and the note's tokens too.
	h.turnComplete(map[string]any{"at": 19_500, "usage": map[string]any{"model": "claude-test", "input_tokens": 1}})
	h.turnStart(20_000)
	h.turnComplete(map[string]any{"at": 20_500, "usage": map[string]any{"model": "claude-test", "input_tokens": 1}})
	h.callInto("view.band", map[string]any{"sessionId": "s"}, &band)
	instr += float64(jstext.Len16(sent[0])) / 4 * 0.30 / 1e6
	if m := band.Money; m == nil || math.Abs(m.SavedUSD-0.0003375) > 1e-6 || math.Abs(m.InstructionsUSD-instr) > 1e-6 || !m.Losing ||
		m.Text != "saved $0.0003 · judge $0.0048 · instructions $0.00007 · net −$0.0045" {
		t.Fatalf("band money = %+v", band.Money)
	}
	var text struct{ Text string }
	h.callInto("view.text", map[string]any{"sessionId": "s", "view": "band", "width": 200}, &text)
	if !strings.Contains(text.Text, "saved $0.0003 · judge $0.0048 · instructions $0.00007 · net −$0.0045 (the judge and the instructions cost more than they saved)") {
		t.Fatalf("band = %q", text.Text)
	}
	h.turnStart(21_000)
	h.tool(22_000, ev("Bash", "command", "bun test"), map[string]any{"text": strings.Repeat("212 pass\n", 500)})
	h.callInto("view.band", map[string]any{"sessionId": "s"}, &band)
	if m := band.Money; m == nil || m.SavedUSD != 0 || m.Text != "saved $0 · judge $0.0048 · instructions $0.00007 · net −$0.0049" {
		t.Fatalf("after the relapse: band money = %+v", band.Money)
	}
}

// TestTablePrices: the embedded table prices a fork by kind; its cache creation as 5-minute writes.
func TestTablePrices(t *testing.T) {
	p := TablePrices{prices.Default()}
	at := time.Date(2026, time.December, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		model string
		u     state.Tokens
		usd   float64
		ok    bool
	}{
		{"a warm fork: mostly cache reads", "claude-sonnet-4-6", state.Tokens{Input: 2_000, Output: 1_000, CacheRead: 150_000}, 0.066, true},
		{"a cold fork: mostly cache writes", "claude-sonnet-4-6", state.Tokens{Input: 50_000, Output: 1_000, CacheCreate: 100_000}, 0.54, true},
		{"over 200k of prompt: the long band", "claude-sonnet-4-6", state.Tokens{Input: 96_000, Output: 1_200, CacheCreate: 221_000}, 2.2605, true},
		{"a dated id", "claude-sonnet-4-6-20260101", state.Tokens{Output: 1_000_000}, 15, true},
		{"no price", "local-llm", state.Tokens{Input: 1}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			usd, ok := p.Cost(c.model, at, c.u)
			if ok != c.ok || math.Abs(usd-c.usd) > 1e-9 {
				t.Fatalf("Cost = %v, %v; want %v, %v", usd, ok, c.usd, c.ok)
			}
		})
	}
	if r, ok := p.CacheRead("claude-sonnet-4-6", at); !ok || r != 0.30 {
		t.Fatalf("CacheRead = %v, %v", r, ok)
	}
}

// TestDemoPriced: `/saver demo`'s judge run is priced as the cache read it mostly is, so the sample's net
// is a figure a reader can check: 8k input, 320k cache reads and 1.2k output at claude-sonnet-4-6's
// long-prompt price (the prompt is over 200k) is $0.267.
func TestDemoPriced(t *testing.T) {
	h := newHarness(t, map[string]any{"debug": true})
	h.saver("demo")
	var pane view.PaneModel
	h.callInto("view.pane", map[string]any{"sessionId": "s"}, &pane)
	m := pane.Header.Money
	if m == nil || !m.Priced || m.JudgeUSD != 0.267 || m.Text != "saved $0 · judge $0.27 · net −$0.27" || !m.Losing {
		t.Fatalf("demo money = %+v", m)
	}
	if pane.Header.JudgeTokens != 9_200 {
		t.Fatalf("demo judge tokens = %d, want the 9.2k billed", pane.Header.JudgeTokens)
	}
}

// TestSmallFiguresTold: a toast never hides a figure behind "0s" or "0%": a time under a second is told in
// tenths or milliseconds, a share of the window under 0.1 % as the tokens it is.
func TestSmallFiguresTold(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		want string
	}{{62_000, "1m 2s"}, {1_000, "1s"}, {999.6, "1s"}, {400, "0.4s"}, {940, "0.9s"}, {960, "1s"}, {49, "49ms"}, {0.2, "1ms"}} {
		if got := textview.PreciseDuration(c.ms); got != c.want {
			t.Errorf("PreciseDuration(%v) = %q, want %q", c.ms, got, c.want)
		}
	}
	for _, c := range []struct {
		chars  float64
		window int64
		want   string
	}{{8_000, 200_000, "1%"}, {1_000, 200_000, "0.1%"}, {61, 1_000_000, "15 tokens of"}, {1, 1_000_000, "1 token of"},
		{900, 1_000_000, "225 tokens of"}, {0, 200_000, ""}, {61, 0, "15 tokens of"}} {
		if got := textview.ContextShare(c.chars, c.window); got != c.want {
			t.Errorf("ContextShare(%v, %d) = %q, want %q", c.chars, c.window, got, c.want)
		}
	}
	if got := relapseText("k", state.Saved{Ms: 400, Chars: 61}, 1_000_000); got != `ContextSaver: back after it was fixed — "k"; its credit is withdrawn (−0.4s · −~15 tokens of context)` {
		t.Errorf("relapseText = %q", got)
	}
}

// fixedWithNote is a priced session of twelve calls whose judge (100 in, 100 out, 10k cache read) found
// three habits, the first fixed with the person's note: the saving's accounting starts here.
func fixedWithNote(t *testing.T, note string) *testHarness {
	t.Helper()
	h := newHarnessWith(t, Options{Synchronous: true, Prices: fakePrices{}}, true, nil)
	h.twelve()
	h.turnComplete(map[string]any{"at": 15_000, "usage": map[string]any{"model": "claude-test", "input_tokens": 40_000}})
	h.turnStart(16_000)
	h.host.queue(withUsage(threeFindings(), judge.ForkUsage{InputTokens: 100, OutputTokens: 100, CacheReadInputTokens: 10_000}, nil))
	h.saver("check")
	h.srv.Quiesce()
	h.saver("fix 1 " + note)
	return h
}
