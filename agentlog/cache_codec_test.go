package agentlog

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/saverd/saverd/prices"
)

// TestRecordsRoundTrip: a record taken from the cache and finished is the record its reader made: every
// field a reader sets, the times' offsets, the calls, the harness's own figure, and the warnings (the
// ones its finish adds come again, at the end).
func TestRecordsRoundTrip(t *testing.T) {
	plus2 := time.FixedZone("", 2*3600)
	at := time.Date(2026, 11, 30, 9, 15, 0, 123456789, plus2)
	project := "named-by-its-log"
	own := 0.25
	r := Record{SessionID: "s1", Harness: "gemini", Project: &project, Start: at, End: at.Add(time.Hour),
		Files: []string{"/l/a.jsonl", "/l/s1/b.jsonl"}, Unlogged: "the router's calls", Warnings: []string{"a bad line"}}
	r.Began(at.Add(-time.Minute))
	r.AddCall(Call{Key: "gemini\x00s1\x001", Owner: "s1", Model: "gemini-3-pro-preview", At: at, Usage: prices.Usage{Input: 1000, Output: 20, CacheRead: 300}, Tools: []string{"read_file", "shell"}})
	r.AddCall(Call{Key: "gemini\x00s1\x002", Model: "no-such-model", At: at.Add(time.Second).UTC(), Usage: prices.Usage{Input: 5, CacheWrite5m: 7, CacheWrite1h: 9}})
	r.SetHarnessFigure(HarnessFigure{Source: "its own figure", Logs: "the logs", Hint: "a hint", USD: 0.5, Tokens: Tokens{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4}})
	r.FinishWith(Options{}, nil)
	r.Warnings = append(r.Warnings, "a warning after the finish")
	o := r
	o.figure = nil
	o.Cost.Harness = &own // OpenCode's own figure, with no HarnessFigure
	empty := Record{SessionID: "empty", Harness: "codex", Cwd: "/w"}
	empty.FinishWith(Options{}, nil)
	for _, rec := range []Record{r, o, empty} {
		got, err := decodeRecords(encodeRecords([]Record{rec}))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d records", len(got))
		}
		g := got[0]
		g.FinishWith(Options{}, nil)
		wantJSON, _ := json.Marshal(rec)
		gotJSON, _ := json.Marshal(g)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("record:\n%s\nwant\n%s", gotJSON, wantJSON)
		}
		if !sameCalls(g.calls, rec.calls) || !g.began.Equal(rec.began) {
			t.Errorf("calls or start:\n%+v %v\nwant\n%+v %v", g.calls, g.began, rec.calls, rec.began)
		}
		if (g.figure == nil) != (rec.figure == nil) || g.figure != nil && *g.figure != *rec.figure {
			t.Errorf("figure %+v, want %+v", g.figure, rec.figure)
		}
		want := rec.readerWarnings()
		for _, m := range rec.Cost.Unpriced {
			want = append(want, rec.unpricedWarning(m))
		}
		wantWarn, _ := json.Marshal(want)
		gotWarn, _ := json.Marshal(g.Warnings)
		if string(gotWarn) != string(wantWarn) {
			t.Errorf("warnings %s, want %s", gotWarn, wantWarn)
		}
	}
	if len(r.Cost.Unpriced) != 1 || len(r.readerWarnings()) != 2 {
		t.Fatalf("the record has unpriced %q, reader's warnings %q: want one model and two", r.Cost.Unpriced, r.readerWarnings())
	}
}

func sameCalls(a, b []Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		_, xo := x.At.Zone()
		_, yo := y.At.Zone()
		if x.Key != y.Key || x.Owner != y.Owner || x.Model != y.Model || !x.At.Equal(y.At) || xo != yo || x.Usage != y.Usage || len(x.Tools) != len(y.Tools) {
			return false
		}
		for j := range x.Tools {
			if x.Tools[j] != y.Tools[j] {
				return false
			}
		}
	}
	return true
}

// FuzzDecodeRecords: any bytes decode to records (that finish) or an error, never a panic.
func FuzzDecodeRecords(f *testing.F) {
	r := Record{SessionID: "s", Harness: "codex", Start: time.Unix(1e9, 5).UTC()}
	r.AddCall(Call{Key: "k", Model: "m", At: time.Unix(1e9, 0).In(time.FixedZone("", -3600)), Tools: []string{"t"}})
	f.Add(encodeRecords([]Record{r}))
	f.Add("")
	f.Add("\x01")
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := decodeRecords(s)
		if err != nil {
			return
		}
		for i := range recs {
			recs[i].FinishWith(Options{}, nil)
		}
	})
}

// FuzzDecodeCache: any bytes are a cache or no cache, never a panic.
func FuzzDecodeCache(f *testing.F) {
	good := encodeCache(map[string]cacheEntry{"k": {deps: []cacheDep{{path: "/p", fp: fingerprint{exists: true, size: 3}}}, data: encodeRecords(nil)}}, "b")
	f.Add(good)
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, err := decodeCache(data, "b"); err == nil && got == nil {
			t.Fatal("no entries and no error")
		}
	})
}
