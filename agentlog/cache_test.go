package agentlog_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
)

// fixtureDirs are every harness's captured logs, of the clients' versions the tests hold.
var fixtureDirs = map[harness.ID][]string{
	harness.ClaudeCode: {"../harness/claude/testdata", "../harness/claude/testdata/versions/claude-1.0"},
	harness.Codex:      {"../harness/codex/testdata", "../harness/codex/testdata/versions/codex-0.58", "../harness/codex/testdata/versions/codex-direct"},
	harness.Gemini:     {"../harness/gemini/testdata/A/.gemini", "../harness/gemini/testdata/B/.gemini", "../harness/gemini/testdata/C/.gemini", "../harness/gemini/testdata/D/.gemini", "../harness/gemini/testdata/E/.gemini"},
	harness.Qwen:       {"../harness/qwen/testdata/qw1/.qwen", "../harness/qwen/testdata/qw2/.qwen", "../harness/qwen/testdata/qw3/.qwen"},
	harness.OpenCode:   {"../harness/opencode/testdata/oc1", "../harness/opencode/testdata/run3"},
}

// TestCacheReadsAsTheLogs: every harness's logs, taken from the cache, are the records and warnings
// read from the logs themselves, and a second run reads none of the logs the cache may keep.
func TestCacheReadsAsTheLogs(t *testing.T) {
	later := time.Now().Add(time.Hour) // the fixtures are as new as the checkout: no change is "too recent"
	for _, h := range all.Logs() {
		t.Run(string(h.ID()), func(t *testing.T) {
			dirs := fixtureDirs[h.ID()]
			if len(dirs) == 0 {
				t.Fatalf("no fixtures named for %s", h.ID())
			}
			files, _ := h.Discover(dirs)
			if len(files) == 0 {
				t.Fatalf("no logs in %q", dirs)
			}
			want := scanJSON(t, files, nil)
			path := filepath.Join(t.TempDir(), "logs.cache")
			first := agentlog.OpenCache(path, later)
			if got := scanJSON(t, files, first); got != want {
				t.Fatalf("read through an empty cache:\n%s\nwant\n%s", got, want)
			}
			if first.Reused() != 0 {
				t.Errorf("an empty cache reused %d logs", first.Reused())
			}
			if err := first.Save(); err != nil {
				t.Fatal(err)
			}
			second := agentlog.OpenCache(path, later)
			if got := scanJSON(t, files, second); got != want {
				t.Fatalf("taken from the cache:\n%s\nwant\n%s", got, want)
			}
			if n := cacheable(files); second.Reused() != n || n == 0 {
				t.Errorf("the second run reused %d logs, want the %d its readers may keep", second.Reused(), n)
			}
		})
	}
}

// scanJSON is what Scan makes of files, records and warnings, as JSON.
func scanJSON(t *testing.T, files []agentlog.File, c *agentlog.Cache) string {
	t.Helper()
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{Cache: c})
	out, err := json.MarshalIndent(struct {
		Records  []agentlog.Record
		Warnings []string
	}{recs, warn}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// cacheable counts the files whose reader lets the cache keep their records and reads them (a file
// that is no session, an orphan summary file, is an error each time it is read).
func cacheable(files []agentlog.File) int {
	n := 0
	for _, f := range files {
		if cr, ok := f.Reader.(agentlog.CacheableReader); ok {
			if _, ok := cr.CacheSetting(f); ok {
				if _, err := f.Reader.ReadFile(f, agentlog.Options{}); err == nil {
					n++
				}
			}
		}
	}
	return n
}

// TestCacheSeesChanges: a log appended to, a file its reader reads beside it changed or added, is read
// again; the others are not; and what a run reads is what the logs hold now.
func TestCacheSeesChanges(t *testing.T) {
	later := time.Now().Add(time.Hour)
	home := t.TempDir()
	copyTree(t, "../harness/claude/testdata/projects", filepath.Join(home, "projects"))
	h := all.Logs()[0]
	if h.ID() != harness.ClaudeCode {
		t.Fatalf("the first harness is %s", h.ID())
	}
	path := filepath.Join(t.TempDir(), "logs.cache")
	run := func() (string, int) {
		files, _ := h.Discover([]string{home})
		c := agentlog.OpenCache(path, later)
		got := scanJSON(t, files, c)
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		if fresh := scanJSON(t, files, nil); got != fresh {
			t.Fatalf("through the cache:\n%s\nthe logs now:\n%s", got, fresh)
		}
		return got, c.Reused()
	}
	before, _ := run()
	files, _ := h.Discover([]string{home})
	n := cacheable(files)
	if _, reused := run(); reused != n {
		t.Fatalf("unchanged: reused %d of %d logs", reused, n)
	}
	// A transcript grows by a copy of one of its assistant lines under a new message id.
	main := files[0].Path
	appendCall(t, main)
	after, reused := run()
	if after == before {
		t.Fatalf("the appended call is not in the figures")
	}
	if reused != n-1 {
		t.Errorf("one transcript grew: reused %d of %d", reused, n)
	}
	// A subagent's transcript appears beside a session that had a subagents directory.
	for _, f := range files {
		dir := filepath.Join(filepath.Dir(f.Path), filepath.Base(f.Path[:len(f.Path)-len(".jsonl")]), "subagents")
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if _, reused := run(); reused != n {
			t.Fatalf("unchanged again: reused %d of %d", reused, n)
		}
		sub := filepath.Join(dir, "agent-cachetest.jsonl")
		copyFile(t, f.Path, sub)
		if _, reused := run(); reused != n-1 {
			t.Errorf("a subagent's transcript added: reused %d of %d", reused, n)
		}
		return
	}
	t.Fatal("no fixture session has a subagents directory")
}

// TestCacheKeepsNoRecentChange: a log changed within the last seconds is read, not kept: its next change
// could leave its times as they are.
func TestCacheKeepsNoRecentChange(t *testing.T) {
	home := t.TempDir()
	copyTree(t, "../harness/claude/testdata/projects", filepath.Join(home, "projects"))
	files, _ := all.Logs()[0].Discover([]string{home})
	path := filepath.Join(t.TempDir(), "logs.cache")
	for range 2 {
		c := agentlog.OpenCache(path, time.Now())
		scanJSON(t, files, c)
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		if c.Reused() != 0 {
			t.Fatalf("logs written just now were taken from the cache (%d)", c.Reused())
		}
	}
}

// TestCacheDamaged: a cache file that is damaged, cut short or of another build is an empty cache, and
// the run writes a good one in its place.
func TestCacheDamaged(t *testing.T) {
	later := time.Now().Add(time.Hour)
	files, _ := all.Logs()[1].Discover(fixtureDirs[harness.Codex])
	want := scanJSON(t, files, nil)
	path := filepath.Join(t.TempDir(), "logs.cache")
	c := agentlog.OpenCache(path, later)
	scanJSON(t, files, c)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0xff
	for name, data := range map[string][]byte{
		"cut short":     good[:len(good)-7],
		"a byte turned": flipped,
		"not a cache":   []byte("{}\n"),
		"empty":         nil,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			c := agentlog.OpenCache(path, later)
			if got := scanJSON(t, files, c); got != want {
				t.Fatalf("through a damaged cache:\n%s\nwant\n%s", got, want)
			}
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			c = agentlog.OpenCache(path, later)
			if got := scanJSON(t, files, c); got != want || c.Reused() != cacheable(files) {
				t.Fatalf("the cache written after a damaged one: reused %d of %d", c.Reused(), cacheable(files))
			}
		})
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// appendCall appends one API call to the Claude Code transcript at path.
func appendCall(t *testing.T, path string) {
	t.Helper()
	id := filepath.Base(path[:len(path)-len(".jsonl")])
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := `{"type":"assistant","sessionId":"` + id + `","timestamp":"2026-12-01T20:00:00Z","cwd":"/home/dev/src/calc","requestId":"req_cachetest","message":{"id":"msg_cachetest","model":"claude-opus-5-5","usage":{"input_tokens":10,"output_tokens":1},"content":[{"type":"text","text":"ok"}]}}` + "\n"
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}
