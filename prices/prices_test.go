package prices

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCost(t *testing.T) {
	tab := Default()
	dec1 := time.Date(2026, 12, 1, 19, 33, 0, 0, time.UTC)
	sep1 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	// One call of the two-turn Claude Code fixture: Claude Code's own cost-state says 13 of them cost 0.091.
	fixtureCall := Usage{Input: 1000, Output: 50, CacheRead: 5000, CacheWrite5m: 200}
	tests := []struct {
		name  string
		model string
		at    time.Time
		u     Usage
		want  float64
		ok    bool
	}{
		{"opus 5.5 fixture call", "claude-opus-5-5", dec1, fixtureCall, 0.091 / 13, true},
		{"1h writes", "claude-opus-5-5", dec1, Usage{CacheWrite1h: 1_000_000}, 8, true},
		{"date suffix", "claude-sonnet-4-5-20250929", dec1, Usage{Input: 100_000}, 0.3, true},
		{"case and blanks", " Claude-Haiku-4-5 ", dec1, Usage{Output: 1_000_000}, 5, true},
		{"sonnet 5.5 read before the cut", "claude-sonnet-5-5", sep1, Usage{CacheRead: 1_000_000}, 0.20, true},
		{"sonnet 5.5 read from the cut", "claude-sonnet-5-5", day(2026, 10, 7), Usage{CacheRead: 1_000_000}, 0.10, true},
		{"sonnet 4 long band", "claude-sonnet-4-5", dec1, Usage{Input: 200_001, Output: 1000}, (200_001*6 + 1000*22.5) / 1e6, true},
		{"sonnet 4 at the band edge", "claude-sonnet-4-5", dec1, Usage{Input: 200_000}, 0.6, true},
		{"gpt-5.5 cached", "gpt-5.5", dec1, Usage{Input: 1000, CacheRead: 1000, Output: 100}, (1000*5 + 1000*0.5 + 100*30) / 1e6, true},
		{"gpt-6 long band counts cached input", "gpt-6-luna", dec1, Usage{Input: 100_000, CacheRead: 200_000, Output: 10},
			(2*(100_000*0.10+200_000*0.01) + 1.5*10*0.50) / 1e6, true},
		{"gpt-6-sol cache write", "gpt-6-sol", dec1, Usage{CacheWrite5m: 100_000}, 0.25, true},
		{"gemini 3.1 pro cached and thinking", "gemini-3.1-pro-preview", dec1, Usage{Input: 3813, CacheRead: 90, Output: 114},
			(3813*2 + 90*0.20 + 114*12) / 1e6, true},
		{"gemini 3.1 pro long band", "gemini-3.1-pro-preview", dec1, Usage{Input: 150_000, CacheRead: 60_000, Output: 100},
			(2*(150_000*2+60_000*0.20) + 1.5*100*12) / 1e6, true},
		{"gemini 3.8 flash through 2026", "gemini-3.8-flash", time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC), Usage{Input: 1_000_000}, 0.75, true},
		{"gemini 3.8 flash from 2027", "gemini-3.8-flash", day(2027, 1, 1), Usage{Input: 1_000_000, Output: 1_000_000}, 1.50 + 7.50, true},
		{"opus 4 as Claude Code 1.0 named it", "claude-opus-4-20250514", day(2025, 6, 10), Usage{Input: 1, CacheWrite5m: 386, CacheRead: 104929, Output: 1},
			(1*15 + 386*18.75 + 104929*1.50 + 1*75) / 1e6, true},
		{"opus 4.1 1h writes", "claude-opus-4-1-20250805", dec1, Usage{CacheWrite1h: 1_000_000}, 30, true},
		{"sonnet 3.7", "claude-3-7-sonnet-20250219", dec1, Usage{Input: 1_000_000, Output: 1_000_000}, 3 + 15, true},
		{"haiku 3.5", "claude-3-5-haiku-20241022", dec1, Usage{CacheRead: 1_000_000, CacheWrite5m: 1_000_000}, 0.08 + 1, true},
		{"codex-mini-latest cached", "codex-mini-latest", dec1, Usage{Input: 1000, CacheRead: 1000, Output: 100}, (1000*1.50 + 1000*0.375 + 100*6) / 1e6, true},
		{"o3 before the cut", "o3", day(2025, 6, 9), Usage{Input: 1_000_000, Output: 1_000_000}, 10 + 40, true},
		{"o3 from the cut", "o3", day(2025, 6, 10), Usage{Input: 1_000_000, Output: 1_000_000}, 2 + 8, true},
		{"o4-mini", "o4-mini", dec1, Usage{CacheRead: 1_000_000}, 0.275, true},
		{"gpt-5.4", "gpt-5.4", dec1, Usage{Input: 1_000_000, CacheRead: 1_000_000, Output: 1_000_000}, 2.50 + 0.25 + 15, true},
		{"qwen stays unpriced", "qwen3.6-plus", dec1, Usage{Input: 1000}, 0, false},
		{"unknown model", "gpt-5.6-terra", dec1, Usage{Input: 1000}, 0, false},
		{"empty model", "", dec1, Usage{Input: 1000}, 0, false},
		{"prefix is not a family", "claude-opus-5-55", dec1, Usage{Input: 1}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tab.Cost(tc.model, tc.at, tc.u)
			if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Cost(%q) = %v, %v; want %v, %v", tc.model, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestZeroTable(t *testing.T) {
	var tab *Table
	if _, ok := tab.Cost("gpt-5.5", time.Now(), Usage{}); ok {
		t.Error("a nil table priced a model")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, in, err string
	}{
		{"ok", `{"models":{"gpt-5.6-terra":[{"from":"2026-11-01","input":3,"output":12}]}}`, ""},
		{"rfc3339", `{"models":{"x":[{"from":"2026-11-01T10:00:00Z","input":3}]}}`, ""},
		{"no from", `{"models":{"x":[{"input":3}]}}`, ""},
		{"not json", `{"models":`, "prices:"},
		{"no models", `{}`, `no "models"`},
		{"empty history", `{"models":{"x":[]}}`, `model "x": no entries`},
		{"bad date", `{"models":{"x":[{"from":"yesterday","input":1}]}}`, `model "x" entry 0: from`},
		{"negative", `{"models":{"x":[{"input":-1}]}}`, "input: negative price"},
		{"band without factors", `{"models":{"x":[{"input":1,"long_above":5}]}}`, "long_above needs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if tc.err == "" && err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Parse error = %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestOverrideReplacesHistory(t *testing.T) {
	over, err := Parse([]byte(`{"models":{"claude-sonnet-5-5":[{"from":"2026-12-01","input":1}],"gpt-5.6-terra":[{"input":2}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	tab := Default().With(over)
	// Before the override's only entry the model still has that price: the embedded history is gone.
	if got, _ := tab.Cost("claude-sonnet-5-5", day(2026, 1, 1), Usage{Input: 1_000_000}); got != 1 {
		t.Errorf("sonnet 5.5 = %v, want the override's 1", got)
	}
	if got, ok := tab.Cost("gpt-5.6-terra", day(2026, 1, 1), Usage{Input: 1_000_000}); !ok || got != 2 {
		t.Errorf("terra = %v, %v; want 2", got, ok)
	}
	if got, _ := tab.Cost("gpt-5.5", day(2026, 1, 1), Usage{Input: 1_000_000}); got != 5 {
		t.Errorf("gpt-5.5 = %v, want the embedded 5", got)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	if tab, err := LoadFile(filepath.Join(dir, "none.json")); err != nil || !tab.Known("gpt-5.5") {
		t.Fatalf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("bad file error = %v, want one naming %s", err, bad)
	}
}

func TestCanonical(t *testing.T) {
	tab := Default()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"gpt-5.5", "gpt-5.5", true},
		{" Claude-Sonnet-4-5-20250929", "claude-sonnet-4-5", true},
		{"gpt-5.6-terra", "gpt-5.6-terra", false},
	} {
		if got, ok := tab.Canonical(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("Canonical(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
