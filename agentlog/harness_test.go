package agentlog

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/prices"
)

// fakeReader is a harness package's reader: each file's records are scripted by its path.
type fakeReader struct{}

func (fakeReader) ReadFile(f File, opt Options) ([]Record, error) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	switch f.Path {
	case "db":
		a := Record{SessionID: "a", Harness: "h", Start: at, End: at.Add(time.Minute)}
		a.AddCall(Call{Key: "h\x00a\x001", Model: "gpt-5.5", At: at, Usage: prices.Usage{Input: 1000, Output: 10}, Tools: []string{"bash"}})
		a.AddCall(Call{Key: "h\x00a\x002", Model: "unknown-model", At: at, Usage: prices.Usage{Input: 5}})
		a.Finish(opt)
		empty := Record{SessionID: "b", Harness: "h"} // no dated line
		empty.Finish(opt)
		return []Record{a, empty}, nil
	case "copy":
		// A fork's copy of a's first call: the same key and time, counted once, in a.
		c := Record{SessionID: "c", Harness: "h", Start: at.Add(time.Hour), End: at.Add(time.Hour)}
		c.AddCall(Call{Key: "h\x00a\x001", Owner: "a", Model: "gpt-5.5", At: at, Usage: prices.Usage{Input: 1000, Output: 10}})
		c.Finish(opt)
		return []Record{c}, nil
	}
	return nil, errors.New(f.Path + ": unreadable")
}

// TestScanHarnessReader: Scan reads a harness package's files with their Reader beside its own, keeps
// every session a file holds, leaves out an undated one and an unreadable file with a warning each, and
// counts a call two files hold once.
func TestScanHarnessReader(t *testing.T) {
	files := []File{{Path: "db", Harness: "h", Reader: fakeReader{}}, {Path: "bad", Harness: "h", Reader: fakeReader{}},
		{Path: "copy", Harness: "h", Reader: fakeReader{}}}
	recs, warn := Scan(context.Background(), files, ScanOptions{})
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.SessionID)
	}
	if !reflect.DeepEqual(ids, []string{"a", "c"}) {
		t.Fatalf("sessions %q, want a and c", ids)
	}
	a, c := recs[0], recs[1]
	if a.Calls != 2 || a.Tools["bash"] != 1 || a.Cost.Total != nil || a.Cost.Priced != (1000*5+10*30)/1e6 || a.Cost.UnpricedTokens != 5 {
		t.Errorf("a: %+v", a)
	}
	if c.Calls != 0 {
		t.Errorf("c kept the call it copies: %+v", c)
	}
	all := strings.Join(warn, "\n")
	for _, w := range []string{"bad: unreadable", "session b has no dated line", `no price for model "unknown-model"`, "session c repeats 1 calls of session a"} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
}

// TestHistory: prompts start turns, a tool call gets its result and the time to it, calls bill their
// turn, and a harness's tool reads as the ledger's.
func TestHistory(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h := NewHistory("h", "s")
	h.SetCwd("/src/p")
	h.Call("m0", prices.Usage{Input: 1}, at) // before any prompt: no turn to bill
	h.Prompt("list files", at)
	tool, in := Ledger(map[string]LedgerTool{"bash": {Name: "Bash"}, "read": {Name: "Read", Keys: map[string]string{"filePath": "file_path"}}},
		"read", map[string]any{"filePath": "/src/p/a.go", "offset": 3})
	h.ToolUse("t1", tool, in, at.Add(time.Second))
	h.ToolResult("t1", "package a", false, at.Add(3*time.Second))
	h.ToolResult("t9", "no such call", false, at)
	h.Call("m1", prices.Usage{Input: 100, CacheRead: 50, Output: 7}, at.Add(2*time.Second))
	h.Prompt("", at.Add(time.Minute))
	tr, err := h.Transcript()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Cwd != "/src/p" || tr.Model != "m1" || len(tr.Turns) != 2 || tr.Turns[0].Calls != 1 || tr.Turns[0].Context != 157 || tr.Durations["t1"] != 2000 {
		t.Fatalf("transcript %+v", tr)
	}
	u := tr.Messages[1].ToolUses[0]
	if u.Tool != "Read" || u.Input["file_path"] != "/src/p/a.go" || u.Text == nil || *u.Text != "package a" {
		t.Errorf("tool use %+v", u)
	}
}
