package prices

import "time"

// since is the date an entry is in force from when the source gives none: every call is priced at it
// until a later entry of the same model takes over.
var since = time.Time{}

// day is a UTC date.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// claude is an Anthropic rate: input, output, 5-minute cache write, 1-hour cache write, cache read.
func claude(in, out, w5m, w1h, read float64) Rate {
	return Rate{Input: in, Output: out, CacheWrite5m: w5m, CacheWrite1h: w1h, CacheRead: read}
}

// openai is an OpenAI rate: input, cached input, output. OpenAI bills no separate cache write for these
// models, so a write is priced as the input it is.
func openai(in, cached, out float64) Rate {
	return Rate{Input: in, CacheRead: cached, Output: out, CacheWrite5m: in, CacheWrite1h: in}
}

// google is a Gemini API rate: input, cached input (context caching), output (thinking included). The
// Gemini API bills no cache write (implicit caching), so a write is priced as the input it is.
func google(in, cached, out float64) Rate {
	return Rate{Input: in, CacheRead: cached, Output: out, CacheWrite5m: in, CacheWrite1h: in}
}

// geminiProBand: Gemini Pro prompts over 200k tokens pay 2× every input-side price and 1.5× output for
// the whole request (3.1 Pro Preview: $4 / $18 against $2 / $12; 2.5 Pro: $2.50 / $15 against $1.25 / $10).
func geminiProBand(r Rate) Rate {
	r.LongAbove, r.LongInput, r.LongOutput = 200_000, 2, 1.5
	return r
}

// gpt6Band: GPT-6.x requests over 272k input tokens pay 2× input and 1.5× output for the whole request
// (OpenAI's model pages, as cited in the Codex notes of this project's shared facts).
func gpt6Band(r Rate) Rate {
	r.LongAbove, r.LongInput, r.LongOutput = 272_000, 2, 1.5
	return r
}

// sonnet4Band: Anthropic's long-context pricing for Sonnet 4 and 4.5 with the 1M window — a prompt over
// 200k input tokens pays 2× every input-side price ($6 input) and 1.5× output ($22.50), for the whole call.
func sonnet4Band(r Rate) Rate {
	r.LongAbove, r.LongInput, r.LongOutput = 200_000, 2, 1.5
	return r
}

// Default is the embedded table. Every figure is USD per million tokens and comes from the published tables
// the project's Claude Code and Codex notes list (Anthropic's pricing page as of 2026-08 and the later model
// pages; OpenAI's pricing and model pages, some figures through third-party trackers, hence overridable),
// and Google's (addGemini).
func Default() *Table {
	t := &Table{}
	// Anthropic: Opus 5 and Opus 4.5–4.8 share one price.
	for _, m := range []string{"claude-opus-5", "claude-opus-4-5", "claude-opus-4-6", "claude-opus-4-7", "claude-opus-4-8"} {
		t.add(m, since, claude(5, 25, 6.25, 10, 0.50))
	}
	// Opus 5.5: the published price, which is also what Claude Code's own cost-state lines charged for
	// claude-opus-5-5 in the observed runs (4 / 20 / 0.20 read / 5 for 5-minute writes).
	t.add("claude-opus-5-5", since, claude(4, 20, 5, 8, 0.20))
	// Sonnet 5 and 5.5; Sonnet 5.5's cache read dropped to 0.10 on 2026-10-07.
	t.add("claude-sonnet-5", since, claude(2, 10, 2.50, 4, 0.20))
	t.add("claude-sonnet-5-5", since, claude(2, 10, 2.50, 4, 0.20))
	t.add("claude-sonnet-5-5", day(2026, time.October, 7), claude(2, 10, 2.50, 4, 0.10))
	// Sonnet 4.x.
	for _, m := range []string{"claude-sonnet-4", "claude-sonnet-4-0", "claude-sonnet-4-5", "claude-sonnet-4-6"} {
		t.add(m, since, sonnet4Band(claude(3, 15, 3.75, 6, 0.30)))
	}
	t.add("claude-haiku-4-5", since, claude(1, 5, 1.25, 2, 0.10))
	t.add("claude-fable-5-1", since, claude(10, 50, 12.50, 20, 0.25))

	// OpenAI, as Codex uses them.
	t.add("gpt-5.5", since, openai(5, 0.50, 30))
	for _, m := range []string{"gpt-5", "gpt-5.1", "gpt-5-codex", "gpt-5.1-codex"} {
		t.add(m, since, openai(1.25, 0.125, 10))
	}
	for _, m := range []string{"gpt-5.2", "gpt-5.2-codex", "gpt-5.3-codex"} {
		t.add(m, since, openai(1.75, 0.175, 14))
	}
	sol := openai(2, 0.20, 10)
	sol.CacheWrite5m, sol.CacheWrite1h = 2.50, 2.50 // gpt-6-sol is the one with a cache-write price
	t.add("gpt-6-sol", since, gpt6Band(sol))
	t.add("gpt-6.2-sol", since, gpt6Band(openai(2, 0.10, 10)))
	t.add("gpt-6-luna", since, gpt6Band(openai(0.10, 0.01, 0.50)))
	addGemini(t)
	addEarlier(t)
	return t
}

// addEarlier adds the models older Claude Code and Codex releases ran, still in people's logs: Anthropic's
// Claude 3 and 4.0/4.1 rows of its pricing page (platform.claude.com/docs/en/about-claude/pricing, read
// 2026-12; Sonnet 3.5 at Sonnet 3.7's price, as it was sold), and the OpenAI models Codex defaulted to or
// offered before GPT-5.2 at their model pages' prices (o3 cut from $10 / $40 to $2 / $8 on 2025-06-10).
// gpt-5.4's 1M-window band is left out: Codex runs it in a 272k window, below the band.
func addEarlier(t *Table) {
	for _, m := range []string{"claude-opus-4", "claude-opus-4-0", "claude-opus-4-1", "claude-3-opus"} {
		t.add(m, since, claude(15, 75, 18.75, 30, 1.50))
	}
	for _, m := range []string{"claude-3-7-sonnet", "claude-3-5-sonnet"} {
		t.add(m, since, claude(3, 15, 3.75, 6, 0.30))
	}
	t.add("claude-3-5-haiku", since, claude(0.80, 4, 1, 1.6, 0.08))
	t.add("claude-3-haiku", since, claude(0.25, 1.25, 0.30, 0.50, 0.03))

	t.add("codex-mini-latest", since, openai(1.50, 0.375, 6))
	t.add("o4-mini", since, openai(1.10, 0.275, 4.40))
	t.add("o3", since, openai(10, 2.50, 40))
	t.add("o3", day(2025, time.June, 10), openai(2, 0.50, 8))
	t.add("gpt-4.1", since, openai(2, 0.50, 8))
	for _, m := range []string{"gpt-5-mini", "gpt-5-codex-mini", "gpt-5.1-codex-mini"} {
		t.add(m, since, openai(0.25, 0.025, 2))
	}
	t.add("gpt-5.1-codex-max", since, openai(1.25, 0.125, 10))
	t.add("gpt-5.4", since, openai(2.50, 0.25, 15))
}

// addGemini adds Google's models as Gemini CLI and OpenCode use them, at the paid tier of the Gemini
// Developer API's pricing page (ai.google.dev/gemini-api/docs/pricing, as transcribed on 2026-09-20 and
// 2026-10-07; the Flash-Lite 3.1 and 3 Flash Preview rows as its 2026-03 and 2026-07 readings quote them).
// Thinking is billed as output. Qwen's models (Qwen Code, and OpenCode through Alibaba's Model Studio)
// are left out: their published prices are tiered by prompt length in more bands than a Rate has, and no
// price page of Model Studio's own was found; they stay unpriced, each with its warning, until a prices
// file names them.
func addGemini(t *Table) {
	for _, m := range []string{"gemini-3.1-pro-preview", "gemini-3.1-pro-preview-customtools", "gemini-3-pro-preview"} {
		// gemini-3-pro-preview was shut down and now answers as 3.1 Pro Preview, at its price.
		t.add(m, since, geminiProBand(google(2, 0.20, 12)))
	}
	// 3.8 Flash: $0.75 / $3.75 through 2026-12-31, $1.50 / $7.50 from 2027-01-01. Its context-caching
	// price is not in the readings found: a tenth of input, as every other Gemini 3.x row lists it.
	t.add("gemini-3.8-flash", since, google(0.75, 0.075, 3.75))
	t.add("gemini-3.8-flash", day(2027, time.January, 1), google(1.50, 0.15, 7.50))
	t.add("gemini-3.5-flash", since, google(1.50, 0.15, 9))
	t.add("gemini-3.5-flash-lite", since, google(0.30, 0.03, 2.50))
	t.add("gemini-3-flash-preview", since, google(0.50, 0.05, 3))
	for _, m := range []string{"gemini-3.1-flash-lite", "gemini-3.1-flash-lite-preview"} {
		t.add(m, since, google(0.25, 0.025, 1.50))
	}
	t.add("gemini-2.5-pro", since, geminiProBand(google(1.25, 0.125, 10)))
	t.add("gemini-2.5-flash", since, google(0.30, 0.03, 2.50))
	t.add("gemini-2.5-flash-lite", since, google(0.10, 0.01, 0.40))
	// Gemma 4 is free of charge on the Gemini API (free tier only).
	for _, m := range []string{"gemma-4-31b-it", "gemma-4-26b-a4b-it"} {
		t.add(m, since, google(0, 0, 0))
	}
}
