package agentlog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// fixtures lists the captured logs of the live harnesses: Claude Code's and Codex's.
func fixtures() ([]agentlog.File, []string) {
	files, warn := claude.Harness{}.Discover([]string{"../harness/claude/testdata"})
	f, w := codex.Harness{}.Discover([]string{"../harness/codex/testdata"})
	return append(files, f...), append(warn, w...)
}

func TestScanFixtures(t *testing.T) {
	files, warn := fixtures()
	if len(warn) > 0 {
		t.Fatalf("discover warnings: %q", warn)
	}
	if len(files) != 7 {
		t.Fatalf("discovered %d files, want 3 transcripts and 4 rollouts: %+v", len(files), files)
	}
	var done int64
	var mu sync.Mutex
	recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{Done: func(n int64) { mu.Lock(); done += n; mu.Unlock() }})
	if len(recs) != 7 {
		t.Fatalf("%d records, want 7", len(recs))
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	if done != total {
		t.Errorf("progress saw %d bytes, want %d", done, total)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Start.Before(recs[i-1].Start) {
			t.Errorf("records not oldest first: %v before %v", recs[i-1].Start, recs[i].Start)
		}
	}
}

// TestSharedCallsHashCollisions: calls whose hashes collide are still told apart by their keys, so
// sharedCalls answers the same whatever the hashes are.
func TestSharedCallsHashCollisions(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := agentlogtest.WriteFork(dir, "../harness/claude/testdata/projects/-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl"); err != nil {
		t.Fatal(err)
	}
	files, _ := claude.Harness{}.Discover([]string{dir})
	read := func(hash func(c *agentlog.Call) uint64) ([]agentlog.Record, []string) {
		var recs []agentlog.Record
		for _, f := range files {
			r, err := claude.ReadSession(f.Path, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		return recs, agentlog.SharedCallsHashed(recs, hash)
	}
	wantRecs, wantWarn := read(agentlog.CallHash)
	if len(wantWarn) != 1 {
		t.Fatalf("warnings %q, want the fork's", wantWarn)
	}
	for _, tc := range []struct {
		name string
		hash func(c *agentlog.Call) uint64 // a function of the key, as every hash is
	}{
		{"all one", func(*agentlog.Call) uint64 { return 0 }},
		{"three", func(c *agentlog.Call) uint64 { return uint64(len(c.Key) % 3) }},
		{"by time", func(c *agentlog.Call) uint64 { return uint64(c.At.Unix()) }},
	} {
		for _, above := range []int{*agentlog.ShardAbove, 0} { // one index, then two halves
			t.Run(fmt.Sprintf("%s/shard above %d", tc.name, above), func(t *testing.T) {
				defer func(was int) { *agentlog.ShardAbove = was }(*agentlog.ShardAbove)
				*agentlog.ShardAbove = above
				recs, warn := read(tc.hash)
				if !slices.Equal(warn, wantWarn) {
					t.Errorf("warnings %q, want %q", warn, wantWarn)
				}
				for i := range recs {
					if got, want := recs[i].Calls, wantRecs[i].Calls; got != want || recs[i].Tokens != wantRecs[i].Tokens {
						t.Errorf("%s: %d calls %+v, want %d %+v", recs[i].SessionID, got, recs[i].Tokens, want, wantRecs[i].Tokens)
					}
				}
			})
		}
	}
}

// TestScanSkipsUndatedFiles: an empty transcript or rollout, or one cut before its first dated line, is
// no session (it read as one dated year 1): a warning names it.
func TestScanSkipsUndatedFiles(t *testing.T) {
	dir := t.TempDir()
	var files []agentlog.File
	for name, text := range map[string]string{
		"empty.jsonl": "", "cut.jsonl": `{"type":"user","message":{"role":"us`, "rollout-2026-12-01T00-00-00-x.jsonl": "",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		var h harness.Logs = claude.Harness{}
		if strings.HasPrefix(name, "rollout-") {
			h = codex.Harness{}
		}
		files = append(files, agentlog.File{Path: path, Harness: string(h.ID()), Size: int64(len(text)), Reader: h})
	}
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) != 0 {
		t.Errorf("records %+v, want none", recs)
	}
	if n := strings.Count(strings.Join(warn, "\n"), "no dated line: not a session (yet), skipped"); n != 3 {
		t.Errorf("warnings %q: want one per file", warn)
	}
}

// TestReadLocal: the agents' logs and the daemon's sessions log together; nothing anywhere is a warning
// that says where to look, never an error.
func TestReadLocal(t *testing.T) {
	log := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(log, []byte(`{"session_id":"d1","harness":"claude-code"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	found, warn, err := agentlog.ReadLocal(context.Background(), agentlog.Local{Discover: fixtures, SessionsLog: log})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(found); n != 8 || !strings.Contains(string(found[n-1]), `"d1"`) {
		t.Errorf("%d records: want the fixtures' 7 sessions, then the daemon's", n)
	}
	for _, w := range warn {
		if strings.Contains(w, "no agent sessions found") || strings.Contains(w, log) {
			t.Errorf("warning %q with every log readable", w)
		}
	}
	empty := t.TempDir()
	found, warn, err = agentlog.ReadLocal(context.Background(), agentlog.Local{Discover: func() ([]agentlog.File, []string) {
		files, warn := claude.Harness{}.Discover([]string{empty})
		f, w := codex.Harness{}.Discover([]string{empty})
		return append(files, f...), append(warn, w...)
	}})
	if err != nil || len(found) != 0 || len(warn) != 1 || !strings.Contains(warn[0], "no agent sessions found") {
		t.Errorf("nothing to read: %d records, warnings %q, err %v", len(found), warn, err)
	}
}
