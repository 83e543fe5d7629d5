package session

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// notTextUsage is the error a host's model.fork answer of `["done"]` decodes to, as the daemon's host
// connection reads it.
func notTextUsage() error {
	_, err := DecodeForkResult(json.RawMessage(`["done"]`))
	return err
}

// textReply is a fork that answered text, billed as reply() is.
func textReply(text string) *ForkResult {
	return &ForkResult{Text: text, Usage: judge.ForkUsage{InputTokens: 1000, OutputTokens: 200, CacheCreationInputTokens: 500}}
}

// TestCheckFailuresSayWhy: every way a check can come back empty is told in words a person reads, never
// a bare count or a word of the code's: a host error, a null fork, a reply with no text, prose, JSON
// without findings, and findings that cite rows the ledger does not have, dropped beside one kept too.
func TestCheckFailuresSayWhy(t *testing.T) {
	ghost := finding("execution:ghost-suite", suiteKind, suiteAlt, []string{"r999", "r4"}, nil, nil)
	ghost2 := finding("reading:ghost-read", grepKind, grepAlt, []string{"r3", "r1000"}, nil, nil)
	cases := []struct {
		name   string
		answer any
		toast  string
		failed string // the judge's error after the run, "" none
		spent  int64  // what the run spent
	}{
		{"host error", errForkBroke, "ContextSaver: check failed — fork broke", "fork broke", 0},
		{"null fork", nil, "ContextSaver: check failed — the host could not fork this session yet (model.fork answered null)",
			"the host could not fork this session yet (model.fork answered null)", 0},
		{"not {text, usage}", notTextUsage(), "ContextSaver: check failed — the host answered model.fork with something that is not {text, usage}",
			"the host answered model.fork with something that is not {text, usage}", 0},
		{"no text", textReply("  "), "ContextSaver: check failed — the judge answered nothing", "the judge answered nothing", 1700},
		{"prose", textReply("I looked and the session seems fine."), "ContextSaver: check failed — the judge answered prose, not JSON",
			"the judge answered prose, not JSON", 1700},
		{"no findings list", textReply(`{"focus":"x","findings":"none"}`), "ContextSaver: check failed — the judge's JSON has no findings list",
			"the judge's JSON has no findings list", 1700},
		{"rows the ledger lacks", reply(ghost, ghost2),
			"ContextSaver: nothing new — 2 findings dropped: they cite rows r999, r1000 that the ledger does not have", "", 1700},
		{"one row the ledger lacks", reply(ghost),
			"ContextSaver: nothing new — 1 finding dropped: it cites row r999 that the ledger does not have", "", 1700},
		{"a row lacking and another reason", reply(ghost, finding("reading:no-why", grepKind, "", []string{"r3", "r5"}, nil, nil)),
			"ContextSaver: nothing new — 2 findings dropped: 1 cites row r999 that the ledger does not have; reading:no-why: alternative is empty", "", 1700},
		{"one kept, one dropped", reply(suiteFinding(nil), ghost2),
			"ContextSaver: 1 new waster — 1 finding dropped: it cites row r1000 that the ledger does not have", "", 1700},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := checkAnswered(t, c.answer, c.toast)
			st := h.st()
			if st.Judge.Running || state.Str(st.Judge.Error) != c.failed || st.Judge.Spent != c.spent {
				t.Fatalf("judge = running %v, error %q, spent %d; want error %q, spent %d", st.Judge.Running, state.Str(st.Judge.Error), st.Judge.Spent, c.failed, c.spent)
			}
		})
	}
}

// TestCheckTimeoutSaysWhy: a fork that outlives the timeout ends the run, and the toast says how long it
// was given.
func TestCheckTimeoutSaysWhy(t *testing.T) {
	h := newHarnessWith(t, Options{Synchronous: true, ForkTimeout: 20 * time.Millisecond}, true, nil)
	h.twelve()
	h.host.reset()
	h.host.gate, h.host.forked = make(chan struct{}), make(chan struct{}, 1)
	if got := h.saver("check"); got != checkingText {
		t.Fatalf("/saver check = %q", got)
	}
	h.srv.Quiesce()
	want := "ContextSaver: check failed — the judge did not answer within 20ms (model.fork timed out)"
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != want {
		t.Fatalf("toasts = %q, want %q", got, want)
	}
}

// TestProcessTimeoutSaysWhy: a process fork that outlives the timeout is said too.
func TestProcessTimeoutSaysWhy(t *testing.T) {
	h := newHarnessWith(t, Options{Synchronous: true, ForkTimeout: 20 * time.Millisecond}, true, nil)
	h.twelve()
	h.host.reset()
	h.host.gate, h.host.forked = make(chan struct{}), make(chan struct{}, 1)
	h.prompt(20_000, "why is this taking so long", "composer")
	h.srv.Quiesce()
	want := "ContextSaver: process check failed — the judge did not answer within 20ms (model.fork timed out)"
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != want {
		t.Fatalf("toasts = %q, want %q", got, want)
	}
}

// TestProcessFailuresSayWhy: the process judge's failures are said too, since every process run is
// automatic and a quiet one looks like a clean bill.
func TestProcessFailuresSayWhy(t *testing.T) {
	cases := []struct {
		name   string
		answer any
		toast  string // "" = nothing said
		spent  int64  // what the process judge spent: a fork that answered was billed
	}{
		{"null fork", nil, "", 0},
		{"host error", errForkBroke, "ContextSaver: process check failed — fork broke", 0},
		{"not {text, usage}", notTextUsage(), "ContextSaver: process check failed — the host answered model.fork with something that is not {text, usage}", 0},
		{"no text", textReply(""), "ContextSaver: process check failed — the judge answered nothing", 1700},
		{"prose", textReply("Looks fine to me."), "ContextSaver: process check failed — the judge answered prose, not JSON", 1700},
		{"no findings list", textReply(`{"findings":{}}`), "ContextSaver: process check failed — the judge's JSON has no findings list", 1700},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.twelve()
			h.host.reset()
			h.host.queue(c.answer)
			h.prompt(20_000, "why is this taking so long", "composer")
			if n := len(h.host.forksOf("process")); n != 1 {
				t.Fatalf("process forks = %d, want 1", n)
			}
			got := h.host.texts(NotifyToast)
			if c.toast == "" && len(got) != 0 || c.toast != "" && (len(got) != 1 || got[0] != c.toast) {
				t.Fatalf("toasts = %q, want %q", got, c.toast)
			}
			if st := h.st(); st.Process.Spent != c.spent || st.Process.Running {
				t.Fatalf("process spent %d running %v, want %d", st.Process.Spent, st.Process.Running, c.spent)
			}
		})
	}
}

// TestDecodeForkResult: what a host answers model.fork with is read strictly, and a wrong answer says
// which part was wrong.
func TestDecodeForkResult(t *testing.T) {
	cases := []struct {
		name, raw string
		text      string
		cost      *float64
		err       string
	}{
		{"null", `null`, "", nil, ""},
		{"text and usage", `{"text":"{}","usage":{"input_tokens":3,"output_tokens":4}}`, "{}", nil, ""},
		{"a fork's own cost", `{"text":"{}","usage":{},"costUsd":0.0123}`, "{}", new(0.0123), ""},
		{"an array", `[1,2]`, "", nil, "the host answered model.fork with something that is not {text, usage}"},
		{"a string", `"done"`, "", nil, "the host answered model.fork with something that is not {text, usage}"},
		{"no text", `{"usage":{}}`, "", nil, "the host answered model.fork without a text"},
		{"text not a string", `{"text":7,"usage":{}}`, "", nil, "the host answered model.fork without a text"},
		{"usage not counts", `{"text":"x","usage":"lots"}`, "", nil, "the host answered model.fork with a usage that is not token counts"},
		{"cost not a number", `{"text":"x","costUsd":"1$"}`, "", nil, "the host answered model.fork with a costUsd that is not a dollar amount"},
		{"cost negative", `{"text":"x","costUsd":-1}`, "", nil, "the host answered model.fork with a costUsd that is not a dollar amount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := DecodeForkResult(json.RawMessage(c.raw))
			if c.err != "" {
				if err == nil || err.Error() != c.err || res != nil {
					t.Fatalf("= %+v, %v; want error %q", res, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.raw == "null" {
				if res != nil {
					t.Fatalf("null = %+v, want nil", res)
				}
				return
			}
			if res.Text != c.text || (c.cost == nil) != (res.CostUSD == nil) || c.cost != nil && *c.cost != *res.CostUSD {
				t.Fatalf("= %+v", res)
			}
		})
	}
}
