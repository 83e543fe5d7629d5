package session

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/judge"
)

// sent is one notification the fake host received.
type sent struct {
	method string
	params any
}

// answer is one queued model.fork answer: a result, nil (a cold snapshot), or an error.
type answer struct {
	res *ForkResult
	err error
}

// fakeHost records every notification and fork, and answers forks from a queue (none left: cold).
type fakeHost struct {
	mu      sync.Mutex
	notes   []sent
	forks   []ForkRequest
	answers []answer
	// onNotify, when set, sees each notification after it is recorded, as a host reacting to it would.
	onNotify func(method string, params any)
	// gate, when set, holds every fork until it is closed (or the fork's context ends); each fork that
	// starts waiting says so on forked.
	gate   chan struct{}
	forked chan struct{}
}

func (h *fakeHost) Fork(ctx context.Context, req ForkRequest) (*ForkResult, error) {
	h.mu.Lock()
	gate, forked := h.gate, h.forked
	h.mu.Unlock()
	if gate != nil {
		forked <- struct{}{}
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.forks = append(h.forks, req)
	if len(h.answers) == 0 {
		return nil, nil
	}
	a := h.answers[0]
	h.answers = h.answers[1:]
	return a.res, a.err
}

func (h *fakeHost) Notify(method string, params any) {
	h.mu.Lock()
	h.notes = append(h.notes, sent{method, params})
	react := h.onNotify
	h.mu.Unlock()
	if react != nil {
		react(method, params)
	}
}

// queue adds fork answers: a *ForkResult, nil for a cold snapshot, or an error.
func (h *fakeHost) queue(answers ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range answers {
		switch v := a.(type) {
		case *ForkResult:
			h.answers = append(h.answers, answer{res: v})
		case error:
			h.answers = append(h.answers, answer{err: v})
		default:
			h.answers = append(h.answers, answer{})
		}
	}
}

// texts is the text of every ui.toast (or ui.log) so far.
func (h *fakeHost) texts(method string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, n := range h.notes {
		if n.method == method {
			out = append(out, n.params.(Toast).Text)
		}
	}
	return out
}

func (h *fakeHost) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.notes {
		if s.method == method {
			n++
		}
	}
	return n
}

func (h *fakeHost) methods() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, n := range h.notes {
		out = append(out, n.method)
	}
	return out
}

func (h *fakeHost) forksOf(purpose string) []ForkRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []ForkRequest
	for _, f := range h.forks {
		if f.Purpose == purpose {
			out = append(out, f)
		}
	}
	return out
}

// reset forgets what was received so far, so a step can be checked on its own.
func (h *fakeHost) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notes = nil
}

// testHarness is one in-memory server with a fake host, an in-memory registry and one session "s".
type testHarness struct {
	t    testing.TB
	srv  *Table
	host *fakeHost
	reg  *testfake.Registry
	cwd  string
}

// newHarness is a fork-capable server in Synchronous mode, with session "s" started in a temp dir.
func newHarness(t testing.TB, start map[string]any) *testHarness {
	return newHarnessWith(t, Options{Synchronous: true}, true, start)
}

func newHarnessWith(t testing.TB, opt Options, fork bool, start map[string]any) *testHarness {
	t.Helper()
	h := &testHarness{t: t, host: &fakeHost{}, reg: testfake.NewRegistry(), cwd: t.TempDir()}
	if opt.Store == nil {
		opt.Store = h.reg
	}
	if opt.Clock == nil {
		opt.Clock = func() int64 { return 999 }
	}
	h.srv = New(opt)
	h.srv.SetHost(h.host)
	h.call("initialize", map[string]any{"capabilities": map[string]any{"fork": fork}})
	params := map[string]any{"sessionId": "s", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}}
	for k, v := range start {
		params[k] = v
	}
	h.call("session.start", params)
	return h
}

func (h *testHarness) callErr(method string, params any) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := h.srv.Handle(context.Background(), rpc.Request{Method: method, Params: raw})
	res, err = rpc.Settle(context.Background(), res, err)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(res)
	if err != nil {
		h.t.Fatal(err)
	}
	return out, nil
}

func (h *testHarness) call(method string, params any) json.RawMessage {
	h.t.Helper()
	res, err := h.callErr(method, params)
	if err != nil {
		h.t.Fatalf("%s: %v", method, err)
	}
	return res
}

func (h *testHarness) callInto(method string, params, out any) {
	h.t.Helper()
	if err := json.Unmarshal(h.call(method, params), out); err != nil {
		h.t.Fatalf("%s result: %v", method, err)
	}
}

// saver runs `/saver args` and answers its reply.
func (h *testHarness) saver(args string) string {
	h.t.Helper()
	var res struct{ Text *string }
	h.callInto("command.run", map[string]any{"sessionId": "s", "at": 50_000, "command": "saver", "args": args}, &res)
	if res.Text == nil {
		h.t.Fatalf("/saver %s: no text", args)
	}
	return *res.Text
}

// stateJSON is debug.state as the bytes the host reads.
func (h *testHarness) stateJSON() string {
	h.t.Helper()
	return string(h.call("debug.state", map[string]any{"sessionId": "s"}))
}

// st is debug.state decoded into the state's own type.
func (h *testHarness) st() *state.State {
	h.t.Helper()
	var st state.State
	if err := json.Unmarshal(h.call("debug.state", map[string]any{"sessionId": "s"}), &st); err != nil {
		h.t.Fatal(err)
	}
	return &st
}

func (h *testHarness) turnStart(at int64) {
	h.call("turn.start", map[string]any{"sessionId": "s", "at": at})
}

// tool sends one tool.call and answers the texts it appended.
func (h *testHarness) tool(at int64, event map[string]any, result map[string]any) []string {
	h.t.Helper()
	if result == nil {
		result = map[string]any{"text": "ok"}
	}
	var res struct{ Context []string }
	h.callInto("tool.call", map[string]any{"sessionId": "s", "at": at, "ms": 1500, "event": event, "result": result}, &res)
	if res.Context == nil {
		h.t.Fatalf("tool.call: context is null, want a list")
	}
	return res.Context
}

func (h *testHarness) prompt(at int64, text, origin string) []string {
	h.t.Helper()
	params := map[string]any{"sessionId": "s", "at": at, "text": text}
	if origin != "" {
		params["origin"] = map[string]any{"kind": origin}
	}
	var res struct{ Context []string }
	h.callInto("prompt.submit", params, &res)
	return res.Context
}

var toolSeq int

func ev(tool string, args ...any) map[string]any {
	toolSeq++
	e := map[string]any{"tool": tool, "tool_use_id": "toolu_" + strconv.Itoa(toolSeq)}
	for i := 0; i+1 < len(args); i += 2 {
		e[args[i].(string)] = args[i+1]
	}
	return e
}

// twelve is the suite run after every edit: rows r1..r12, the test suite at r1, r4 and r7.
func (h *testHarness) twelve() {
	h.t.Helper()
	h.turnStart(2_000)
	suite := func() map[string]any { return ev("Bash", "command", "bun test") }
	read := func(f string) map[string]any { return ev("Read", "file_path", h.cwd+"/"+f) }
	edit := func(f string) map[string]any {
		return ev("Edit", "file_path", h.cwd+"/"+f, "old_string", "a", "new_string", "b")
	}
	calls := []map[string]any{suite(), read("a.ts"), edit("a.ts"), suite(), read("b.ts"), edit("b.ts"), suite(),
		ev("Grep", "pattern", "refresh", "path", h.cwd), read("c.ts"), read("d.ts"), read("e.ts"), read("f.ts")}
	for i, e := range calls {
		text := "ok"
		if e["tool"] == "Bash" {
			text = strings.Repeat("212 pass\n", 500)
		}
		h.tool(int64(3_000+i*1_000), e, map[string]any{"text": text})
	}
}

// finding is one judge finding as the model would return it.
func finding(id, kind, alternative string, evidence []string, signature any, proposal any) map[string]any {
	return map[string]any{
		"id": id, "category": id[:strings.IndexByte(id, ':')], "kind": kind, "evidence": evidence,
		"signature": signature, "why": "the same call ran again and again after one-file edits",
		"alternative": alternative, "confidence": 0.9, "est_tokens_per_turn": nil, "proposal": proposal,
	}
}

func reply(findings ...map[string]any) *ForkResult {
	if findings == nil {
		findings = []map[string]any{}
	}
	text, _ := json.Marshal(map[string]any{"focus": "fixing a.ts", "time": "suite runs", "context": "suite output", "findings": findings})
	return &ForkResult{Text: string(text), Usage: judge.ForkUsage{InputTokens: 1000, OutputTokens: 200, CacheCreationInputTokens: 500}}
}

const (
	suiteKind  = "Claude keeps running the whole suite after every edit"
	suiteAlt   = "run only the tests covering the files you changed"
	grepKind   = "Claude keeps grepping the tree for what it already read"
	grepAlt    = "search once and keep the answer"
	rereadKind = "Claude keeps re-reading files it has just read"
	rereadAlt  = "read each file once per task"
)

func suiteFinding(proposal any) map[string]any {
	return finding("execution:full-suite", suiteKind, suiteAlt, []string{"r4", "r7"}, map[string]any{"tool": "Bash", "key": "test:bun test"}, proposal)
}

// threeFindings is a judge reply that leaves three cards: the suite, then two behavioural ones.
func threeFindings() *ForkResult {
	return reply(
		suiteFinding(nil),
		finding("reading:grep-again", grepKind, grepAlt, []string{"r8", "r9"}, nil, nil),
		finding("reading:reread", rereadKind, rereadAlt, []string{"r10", "r11"}, nil, nil),
	)
}

// cards runs the twelve calls and a check the fake host answers with reply, and answers the cards.
func (h *testHarness) cards(r *ForkResult) []string {
	h.t.Helper()
	h.twelve()
	h.host.queue(r)
	if got := h.saver("check"); got != checkingText {
		h.t.Fatalf("/saver check = %q", got)
	}
	h.srv.Quiesce()
	return h.st().Cards
}

var errForkBroke = errors.New("fork broke")

// checkAnswered runs the twelve calls and a /saver check the fake host answers with answer, and asserts
// the check's one toast is toast.
func checkAnswered(t *testing.T, answer any, toast string) *testHarness {
	t.Helper()
	h := newHarness(t, nil)
	h.twelve()
	h.host.reset()
	h.host.queue(answer)
	if got := h.saver("check"); got != checkingText {
		t.Fatalf("/saver check = %q", got)
	}
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != toast {
		t.Fatalf("toasts = %q, want %q", got, toast)
	}
	return h
}
