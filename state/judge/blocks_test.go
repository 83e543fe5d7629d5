package judge

import (
	"regexp"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

func TestFlagsCell(t *testing.T) {
	cases := []struct {
		row  state.Row
		want string
	}{
		{state.Row{}, "-"},
		{state.Row{Flags: []string{"err", "persist=48213"}}, "err persist=48213"},
		{state.Row{Tool: "Edit", Lines: &state.Lines{Add: 12, Del: 3}}, "+12/-3"},
		{state.Row{Flags: []string{"err"}, Launch: &state.Launch{Type: "general-purpose", Resolved: new("claude-opus-4-1"),
			Status: new("completed"), Tokens: new(41000.0), Edits: new(0.0), PromptChars: 300}},
			"err agent=general-purpose/opus/completed/41000tok/0edits/300pch"},
		// The requested model when the host did not resolve one; `?` for what it did not report.
		{state.Row{Launch: &state.Launch{Type: "Explore", Requested: new("haiku")}}, "agent=Explore/haiku/?/?tok/?edits/0pch"},
		{state.Row{Launch: &state.Launch{Type: "x"}}, "agent=x/?/?/?tok/?edits/0pch"},
	}
	for _, c := range cases {
		if got := flagsCell(&c.row); got != c.want {
			t.Errorf("flagsCell = %q, want %q", got, c.want)
		}
	}
}

func TestPathsCell(t *testing.T) {
	for paths, want := range map[string]string{
		"":                    "-",
		"/a.ts":               "/a.ts",
		"/a.ts /b.ts /c.ts":   "/a.ts, /b.ts, /c.ts",
		"/a /b /c /d /e /f/g": "/a, /b, /c (+3 more)",
	} {
		if got := pathsCell(strings.Fields(paths)); got != want {
			t.Errorf("pathsCell(%q) = %q, want %q", paths, got, want)
		}
	}
	if got := pathsCell([]string{"/a b\nc/" + strings.Repeat("x", 200)}); jstext.Len16(got) != pathMax || strings.Contains(got, "\n") {
		t.Errorf("a long path is one line of %d units: %q", pathMax, got)
	}
}

func TestOutcomeCell(t *testing.T) {
	for _, c := range []struct {
		o    *state.Outcome
		want string
	}{
		{nil, "-"},
		{&state.Outcome{Kind: state.OutcomeReport, Chars: 5900}, "report 5900ch"},
		{&state.Outcome{Kind: state.OutcomeFindings, High: 1, Low: 4}, "1 high 4 low"},
		{&state.Outcome{Kind: state.OutcomeFindings, Critical: 2, Medium: 1}, "2 critical 1 medium"},
		{&state.Outcome{Kind: state.OutcomeFindings}, "0 findings"},
		{&state.Outcome{Kind: "other"}, "-"},
	} {
		if got := outcomeCell(c.o); got != c.want {
			t.Errorf("outcomeCell(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}

// JavaScript's toFixed(1) rounds an exact tie away from zero; FormatFloat would round it to even.
func TestToFixed1(t *testing.T) {
	for x, want := range map[float64]string{
		0: "0.0", 0.25: "0.3", 0.35: "0.3", 0.05: "0.1", 1.45: "1.4", 2.5: "2.5", 0.75: "0.8", -0.25: "-0.3",
		-0.04: "-0.0", 12345678.25: "12345678.3", 1e21: "1e+21", 153722867280912.9: "153722867280912.9",
	} {
		if got := toFixed1(x); got != want {
			t.Errorf("toFixed1(%v) = %q, want %q", x, got, want)
		}
	}
	if minutes(15_000) != "0.3m" || minutes(102_000) != "1.7m" || ktok(48_000) != "48k" || ktok(499) != "0k" || ktok(500) != "1k" {
		t.Errorf("minutes/ktok")
	}
}

func TestTallyOrder(t *testing.T) {
	// Equal counts order by UTF-16 unit, as JavaScript compares: U+1F600 before U+FF5E.
	if got := tally([]string{"b", "～", "😀", "a", "b"}); got != "b ×2 · a ×1 · 😀 ×1 · ～ ×1" {
		t.Errorf("tally = %q", got)
	}
}

// The hand-written matchers agree with ContextSaver's regular expressions.
func TestMatchersAgreeWithThePluginsRegexps(t *testing.T) {
	readRange := regexp.MustCompile(`:\d*-\d*$`)
	memory := regexp.MustCompile(`(/memory/[^/]+\.md|/(CLAUDE|MEMORY)\.md)$`)
	role := regexp.MustCompile(`^[A-Za-z][\w-]*`)
	family := regexp.MustCompile(`(opus|sonnet|haiku|fable)`)
	words := []string{
		"", ":", ":-", "/a.ts:-", "/a.ts:10-20", "/a:b:1-2", "a:1-2-3", "a:1-", "a:-2", "a:12", "/x:-/y", "a:b",
		"/repo/CLAUDE.md", "CLAUDE.md", "/m/memory/x.md", "/m/memory/.md", "/m/memory/a/b.md", "/memory/x.md", "/m/memories/x.md",
		"/r/MEMORY.md", "/r/claude.md", "review:C3-r1", "9x", "impl", "-x", "a_b-c d", "Ünï",
		"claude-opus-4-1", "claude-sonnet-4-5", "x-haiku-opus", "gpt-5", "fable", "sonnetopus",
		"git merge main", "git merge-base", "git merged", "merge", "a_merge", "commit -m x", "git commit", "gh pr merge 3",
	}
	for _, w := range words {
		if got, want := readPath(w), readRange.ReplaceAllString(w, ""); got != want {
			t.Errorf("readPath(%q) = %q, want %q", w, got, want)
		}
		if got, want := isMemoryFile(w), memory.MatchString(w); got != want {
			t.Errorf("isMemoryFile(%q) = %v", w, got)
		}
		if got, want := roleWord(w), role.FindString(w); got != want {
			t.Errorf("roleWord(%q) = %q, want %q", w, got, want)
		}
		want := w
		if m := family.FindString(w); m != "" {
			want = m
		}
		if got := modelShort(&w); got != want {
			t.Errorf("modelShort(%q) = %q, want %q", w, got, want)
		}
		for _, word := range []string{"merge", "commit"} {
			if got, want := hasWord(w, word), regexp.MustCompile(`\b`+word+`\b`).MatchString(w); got != want {
				t.Errorf("hasWord(%q, %q) = %v", w, word, got)
			}
		}
	}
}

// Each heading's promised columns, read off the golden prompts (the goldens hold the whole text).
func TestBlocksCarryTheirColumns(t *testing.T) {
	w := workflowSession()
	p := BuildPrompt(w, nil)
	for heading, lines := range map[string][]string{
		"AGENTS": {
			"impl-chunks | w1 | loops 72 | Σ216.0m | Σ3456k | edits 72 | turn 1",
			"~ w1 | ×14 | Σ42.0m | Σ672k",
			"a17 | w1 | check:C6 | sonnet | 2 | 3.0m | 48k | edits 0 | checks 4 | reads 0 | report 1600ch | answer",
			"a21 | w1 | review:C7-r1 | opus | 2 | 3.0m | 48k | edits 0 | checks 0 | reads 3 | 1 high 4 low | answer",
			"a73 | w2 | fix:C2 | haiku | 2 | 3.0m | 48k | edits 2 | checks 1 | reads 1 | - | running",
			"a74 | - | - | opus | 2 | 3.0m | 48k | edits 0 | checks 0 | reads 9 | report 5900ch | answer",
		},
		"TIME":    {"total | ×180 | Σ1248910ms", "tests | ×32 | Σ1080000ms | 86%", "agents | ×2 | Σ5640000ms | apart", "r177 | Agent | agent:workflow | Σ5400000ms"},
		"CONTEXT": {"total | ×180 | Σ715900chars", "agents | ×2 | Σ8900chars | apart"},
		"STATS": {
			"Read | /docs/spec.md:- | read | ×26 | Σ390ms | Σ312000chars | turns 2-3 | edits-between 1 | a1 a4 a7 a10 a13 a16 +20",
			"waits: none", "class test | ×32 | Σ1080000ms | Σ144000chars", "agent main | ×34 | Σ382815ms | Σ65200chars", "~ ×55 more",
		},
	} {
		b := block(t, p, heading)
		for _, l := range lines {
			if !strings.Contains("\n"+b+"\n", "\n"+l+"\n") {
				t.Errorf("%s lacks the line %q", heading, l)
			}
		}
	}
	ledger := p[strings.Index(p, "\n## LEDGER"):]
	for _, l := range []string{
		"~ | Read | /docs/spec.md:- | ×5 | Σ60000chars",
		"r180 | Agent | agent:general-purpose | other | main | 3 | 240000 | 5900 | agent=general-purpose/opus/completed/41000tok/0edits/300pch | -",
		"r39 | Edit | /src/chunk6.ts | other | a16 | 2 | 40 | 300 | +26/-4 | /src/chunk6.ts",
	} {
		if !strings.Contains(ledger, "\n"+l+"\n") {
			t.Errorf("LEDGER lacks the line %q", l)
		}
	}
	c := BuildPrompt(compactedSession(), nil)
	for _, l := range []string{
		"turn 5 | in 400 | out 300 | cacheCreate 900 | calls 2 | 3000ms | answerChars 120 | aborted",
		"turn 6 | in 300 | out 0 | cacheCreate 0 | calls 0 | 1000ms | answerChars 0 | error",
		"turn 7 | in 300 | out 50 | cacheCreate 0 | calls 0 | 900ms | answerChars 80 | refusal | idle 59m",
		"facts | window 200000 tokens | overhead memory 3100 · mcp 12400 · agents 900 tokens per turn | compactions at turn 2, 4",
	} {
		if !strings.Contains(block(t, c, "TURNS")+"\n", l+"\n") {
			t.Errorf("TURNS lacks %q", l)
		}
	}
	for heading, l := range map[string]string{
		"KNOWN PATTERNS": "environment:npx-prisma | Claude keeps running prisma through npx | open | previous keep",
		"DECISIONS":      "environment:npx-prisma | other:npx prisma migrate dev | keep @ previous session",
	} {
		if !strings.Contains(block(t, c, heading), l) {
			t.Errorf("%s lacks %q", heading, l)
		}
	}
	if !strings.Contains(block(t, c, "DECISIONS"), "execution:full-suite-after-each-edit | test:bun test | steer @ 3\nreading:reread-after-compaction | - | keep @ 5") {
		t.Errorf("DECISIONS lacks this session's decisions")
	}
	// The full session: every row past the window folds, the `~` lines are capped, turns fold.
	f := BuildPrompt(fullSession(0), nil)
	if !strings.Contains(f, "\n~ ×23 more\n") || !strings.Contains(block(t, f, "TURNS"), "~ ×34 earlier turns | in 102000 |") {
		t.Errorf("the full session's folds are missing")
	}
	if !strings.Contains(block(t, f, "STATS"), "waits: ×2 | Σ300000ms | recommended ×1") {
		t.Errorf("folded asks are counted in waits")
	}
}

func TestDigestCut(t *testing.T) {
	s := workflowSession()
	s.Asks = nil
	for i := range 400 {
		s.Asks = append(s.Asks, state.Ask{Turn: i + 1, At: int64(i) * 60_000, Head: strings.Repeat("a", 150)})
	}
	d := Digest(s, nil)
	if n := jstext.Len16(d); n > state.DigestMaxChars {
		t.Fatalf("digest %d units", n)
	}
	lines := strings.Split(d, "\n")
	// The first ask is pinned, the oldest after it cut, the newest kept; Shape untouched.
	if lines[1] != "turn:1 | +0m | "+strings.Repeat("a", 150) || !strings.HasPrefix(lines[2], "~ ×") || !strings.HasSuffix(lines[2], " lines cut") {
		t.Fatalf("asks not cut oldest first: %q / %q", lines[1], lines[2])
	}
	if !strings.Contains(d, "turn:400 | +399m |") || !strings.Contains(d, "roles × model: check sonnet ×24") {
		t.Fatalf("the newest ask or Shape was lost")
	}
	// A digest that Shape alone overflows is cut section by section, Shape last, then cut to the cap.
	for i := range 600 {
		s.Loops = append(s.Loops, state.Loop{ID: strings.Repeat("x", 60) + string(rune('A'+i%26)) + strings.Repeat("y", i%7), Label: new(strings.Repeat("l", 80))})
	}
	d = Digest(s, nil)
	if n := jstext.Len16(d); n > state.DigestMaxChars || strings.Count(d, " lines cut") != 5 {
		t.Fatalf("digest %d units, %d cuts", n, strings.Count(d, " lines cut"))
	}
}
