package agentlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"
)

func testSources() Sources {
	return Sources{ClaudeDirs: []string{"testdata/claude"}, CodexDirs: []string{"testdata/codex"}}
}

func TestScanFixtures(t *testing.T) {
	files, warn := Discover(testSources())
	if len(warn) > 0 {
		t.Fatalf("discover warnings: %q", warn)
	}
	if len(files) != 7 {
		t.Fatalf("discovered %d files, want 3 transcripts and 4 rollouts: %+v", len(files), files)
	}
	var done int64
	var mu sync.Mutex
	recs, _ := Scan(context.Background(), files, ScanOptions{Done: func(n int64) { mu.Lock(); done += n; mu.Unlock() }})
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

// A --fork-session transcript copies its parent's history, message ids included: the copied calls count
// once, in the parent, and the fork keeps only its own.
func TestScanForkCountedOnce(t *testing.T) {
	dir, parent, fork := writeFork(t)
	files, _ := Discover(Sources{ClaudeDirs: []string{dir}, CodexDirs: []string{}})
	recs, warn := Scan(context.Background(), files, ScanOptions{})
	byID := map[string]Record{}
	for _, r := range recs {
		byID[r.SessionID] = r
	}
	if got := byID[parent].Calls; got != 13 {
		t.Errorf("parent calls = %d, want its 13", got)
	}
	if got := byID[fork]; got.Calls != 1 || got.Tokens.Input != 10 {
		t.Errorf("fork = %d calls, %+v; want only its own call", got.Calls, got.Tokens)
	}
	if !hasWarning(warn, "session "+fork+" repeats 9 calls of session "+parent) {
		t.Errorf("warnings %q do not say the fork repeats its parent", warn)
	}

	// A fork saverd started itself (its forks log names it) is no session: its own call is the parent's
	// judge spend, and its copy of the parent's history is no news (no warning). Its transcript is what
	// counts, not the tokens its line records.
	logged := &Tokens{Input: 999}
	recs, warn = Scan(context.Background(), files, ScanOptions{Forks: map[string]ForkRecord{fork: {SessionID: fork, Parent: parent, Tokens: logged}}})
	if len(recs) != 1 || recs[0].SessionID != parent || recs[0].Calls != 13 {
		t.Fatalf("records %+v, want the parent alone", recs)
	}
	// 10 input and 1 output at claude-opus-5-5's $4 and $20 a million.
	if j := recs[0].Judge; j == nil || j.Forks != 1 || j.Calls != 1 || j.Tokens.Input != 10 || j.Cost == nil || *j.Cost != 0.00006 {
		t.Errorf("judge spend %+v, want the fork's one call", j)
	}
	if hasWarning(warn, "repeats") {
		t.Errorf("warnings %q: a fork saverd ran is said to repeat its parent", warn)
	}
	_, warn = Scan(context.Background(), files[:1], ScanOptions{Forks: map[string]ForkRecord{parent: {SessionID: parent, Parent: "gone"}}})
	if !hasWarning(warn, "fork "+parent+" of session gone: the session is not among the logs read") {
		t.Errorf("warnings %q, want the orphan fork named", warn)
	}
}

// TestScanLoggedForks: a fork no log of its own holds (codex exec --ephemeral) is its parent's judge
// spend from the tokens its forks-log line records, priced at its model's price when it ran; one of a
// model with no price makes the sum null; one of a parent not read is a warning.
func TestScanLoggedForks(t *testing.T) {
	dir, parent, _ := writeFork(t)
	files, _ := Discover(Sources{ClaudeDirs: []string{dir}, CodexDirs: []string{}})
	files = files[:1] // the parent alone
	if !strings.Contains(files[0].Path, parent) {
		t.Fatalf("files %v", files)
	}
	judge := func(forks ...ForkRecord) (*ForkSpend, []string) {
		m := map[string]ForkRecord{}
		for _, f := range forks {
			m[f.SessionID] = f
		}
		recs, warn := Scan(context.Background(), files, ScanOptions{Forks: m})
		if len(recs) != 1 {
			t.Fatalf("records %+v", recs)
		}
		return recs[0].Judge, warn
	}
	// gpt-5.5: $5 input, $0.50 cached, $30 output a million.
	a := ForkRecord{SessionID: "t1", Parent: parent, Harness: "codex", Purpose: "judge", At: "2026-12-01T20:00:00Z", Model: "gpt-5.5",
		Tokens: &Tokens{Input: 600, CacheRead: 5500, Output: 100}}
	b := ForkRecord{SessionID: "t2", Parent: parent, Harness: "codex", Purpose: "process", At: "2026-12-01T20:05:00Z", Model: "gpt-5.5",
		Tokens: &Tokens{Input: 1000, Output: 10}}
	j, _ := judge(a, b)
	// 600×5 + 5500×0.5 + 100×30 = 8750; 1000×5 + 10×30 = 5300: $0.01405.
	if j == nil || j.Forks != 2 || j.Calls != 0 || j.Tokens != (Tokens{Input: 1600, CacheRead: 5500, Output: 110}) || j.Cost == nil || *j.Cost != 0.01405 {
		t.Fatalf("judge spend %+v", j)
	}
	b.Model = "local-llm"
	if j, _ := judge(a, b); j == nil || j.Cost != nil || j.Forks != 2 {
		t.Fatalf("a fork with no price: judge spend %+v, want cost null", j)
	}
	old := ForkRecord{SessionID: "t3", Parent: parent, At: "2026-12-01T20:00:00Z", Model: "gpt-5.5"}
	if j, _ := judge(old); j != nil {
		t.Fatalf("a line with no tokens and no log: judge spend %+v, want none", j)
	}
	orphan := ForkRecord{SessionID: "t4", Parent: "gone", At: "2026-12-01T20:00:00Z", Model: "gpt-5.5", Tokens: &Tokens{Input: 1}}
	if _, warn := judge(orphan); !hasWarning(warn, "fork t4 of session gone: the session is not among the logs read") {
		t.Fatalf("warnings %q", warn)
	}
}

// writeFork writes a transcript and a --fork-session copy of its first turn with one call of its own.
func writeFork(t *testing.T) (dir, parent, fork string) {
	t.Helper()
	dir = t.TempDir()
	proj := filepath.Join(dir, "projects", "-home-dev-src-calc")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	parent = "c30d052a-2836-49f8-a652-5038e728a894"
	fork = "f0f0f0f0-0000-4000-8000-000000000001"
	src, err := os.ReadFile(filepath.Join(claudeProjects, "-home-dev-src-calc", parent+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The fork: the parent's first turn (its first 59 lines, 9 calls) copied, then one call of its own.
	lines := bytes.SplitAfter(src, []byte("\n"))
	var forked bytes.Buffer
	for _, l := range lines[:59] {
		forked.Write(bytes.ReplaceAll(l, []byte(parent), []byte(fork)))
	}
	forked.WriteString(`{"type":"assistant","sessionId":"` + fork + `","timestamp":"2026-12-01T20:00:00Z","cwd":"/home/dev/src/calc","message":{"id":"msg_fork","model":"claude-opus-5-5","usage":{"input_tokens":10,"output_tokens":1},"content":[{"type":"text","text":"ok"}]}}` + "\n")
	for name, data := range map[string][]byte{parent: src, fork: forked.Bytes()} {
		if err := os.WriteFile(filepath.Join(proj, name+".jsonl"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, parent, fork
}

// TestSharedCallsHashCollisions: calls whose hashes collide are still told apart by their keys, so
// sharedCalls answers the same whatever the hashes are.
func TestSharedCallsHashCollisions(t *testing.T) {
	dir, _, _ := writeFork(t)
	files, _ := Discover(Sources{ClaudeDirs: []string{dir}, CodexDirs: []string{}})
	read := func(hash func(c *call) uint64) ([]Record, []string) {
		var recs []Record
		for _, f := range files {
			r, err := ReadClaudeSession(f.Path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		for i := range recs {
			recs[i].hashes = make([]uint64, len(recs[i].calls))
			for j := range recs[i].calls {
				recs[i].hashes[j] = hash(&recs[i].calls[j])
			}
		}
		return recs, sharedCalls(recs, defaultPrices(), nil)
	}
	wantRecs, wantWarn := read(func(c *call) uint64 { return maphash.Comparable(callSeed, sharedKey(c)) })
	if len(wantWarn) != 1 {
		t.Fatalf("warnings %q, want the fork's", wantWarn)
	}
	for _, tc := range []struct {
		name string
		hash func(c *call) uint64 // a function of the key, as every hash is
	}{
		{"all one", func(*call) uint64 { return 0 }},
		{"three", func(c *call) uint64 { return uint64(len(c.key) % 3) }},
		{"by time", func(c *call) uint64 { return uint64(c.at.Unix()) }},
	} {
		for _, above := range []int{shardAbove, 0} { // one index, then two halves
			t.Run(fmt.Sprintf("%s/shard above %d", tc.name, above), func(t *testing.T) {
				defer func(was int) { shardAbove = was }(shardAbove)
				shardAbove = above
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

func TestCodexZstd(t *testing.T) {
	name := "rollout-2026-12-01T19-44-33-01a23323-2f6c-7410-9a90-799c96f92d5c.jsonl"
	plain, err := os.ReadFile(filepath.Join("testdata/codex/sessions/2026/12/01", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	arch := filepath.Join(dir, "archived_sessions")
	if err := os.MkdirAll(arch, 0o700); err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	if err := os.WriteFile(filepath.Join(arch, name+".zst"), enc.EncodeAll(plain, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	files, _ := Discover(Sources{ClaudeDirs: []string{}, CodexDirs: []string{dir}})
	if len(files) != 1 {
		t.Fatalf("files = %+v, want the .jsonl.zst", files)
	}
	got, err := ReadCodexRollout(files[0].Path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ReadCodexRollout(filepath.Join("testdata/codex/sessions/2026/12/01", name), Options{})
	if got.Calls != want.Calls || got.Tokens != want.Tokens || got.SessionID != want.SessionID {
		t.Errorf("zst record %+v, want %+v", got, want)
	}
}

func TestWalkUnreadableDirectory(t *testing.T) {
	fsys := fstest.MapFS{
		"-a/s1.jsonl":                   {Data: []byte("{}\n")},
		"-a/s1/subagents/agent-x.jsonl": {Data: []byte("{}\n")},
		"-locked":                       {Mode: fs.ModeDir},
		"-b/s2.jsonl":                   {Data: []byte("{}\n")},
	}
	locked := errFS{fsys, "-locked"}
	files, warn := walkFS(locked, "/c/projects", HarnessClaude, isClaudeTranscript)
	if len(files) != 2 {
		t.Errorf("files = %+v, want s1 and s2 (a subagent is read with its session)", files)
	}
	if len(warn) != 1 || !strings.Contains(warn[0], "/c/projects/-locked: permission denied") {
		t.Errorf("warnings = %q, want the locked directory named", warn)
	}
}

// errFS refuses to list one directory, as an unreadable directory does.
type errFS struct {
	fs.FS
	deny string
}

func (e errFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == e.deny {
		return nil, fs.ErrPermission
	}
	return fs.ReadDir(e.FS, name)
}

func TestAppendRecordConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "saverd", "sessions.jsonl")
	big := strings.Repeat("x", 70_000) // far past any atomic-write size a pipe would promise
	var wg sync.WaitGroup
	const writers, each = 8, 25
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				rec := Record{SessionID: big, Harness: HarnessClaude, Calls: w*1000 + i}
				if err := AppendRecord(path, rec); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != writers*each {
		t.Fatalf("%d lines, want %d", len(lines), writers*each)
	}
	seen := map[int]bool{}
	for i, l := range lines {
		var r Record
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("line %d is not one record: %v", i+1, err)
		}
		seen[r.Calls] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct records, want %d", len(seen), writers*each)
	}
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
}

func TestAppendRecordUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := AppendRecord(filepath.Join(blocker, "sessions.jsonl"), Record{SessionID: "s"})
	if err == nil || !strings.Contains(err.Error(), "append session s") {
		t.Errorf("err = %v, want one naming the session", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Errorf("err = %v, want the path error kept", err)
	}
}

// TestScanFindsSubagents: Scan looks for a session's subagents only where Discover saw something named
// like the session (a directory, or a link to one), and reads every session as ReadClaudeSession does.
func TestScanFindsSubagents(t *testing.T) {
	demo := filepath.Join(claudeProjects, "-home-dev-src-demo")
	withAgent := "13c0eb32-b32a-4091-966d-1055a1ec77df"
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "p")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile := func(src, dst string) {
		t.Helper()
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The session with a subagent, its directory a symbolic link; the other sessions plain.
	copyFile(filepath.Join(demo, withAgent+".jsonl"), filepath.Join(proj, withAgent+".jsonl"))
	abs, err := filepath.Abs(filepath.Join(demo, withAgent))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(proj, withAgent)); err != nil {
		t.Fatal(err)
	}
	copyFile(filepath.Join(demo, "04f0f6ba-c937-4e53-aa5b-13778f5eb2f2.jsonl"), filepath.Join(proj, "04f0f6ba-c937-4e53-aa5b-13778f5eb2f2.jsonl"))
	for _, srcs := range []Sources{testSources(), {ClaudeDirs: []string{dir}, CodexDirs: []string{}}} {
		files, _ := Discover(srcs)
		recs, _ := Scan(context.Background(), files, ScanOptions{})
		agents := 0
		for _, r := range recs {
			if r.Harness != HarnessClaude {
				continue
			}
			want, err := ReadClaudeSession(r.Files[0], Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Files, want.Files) || r.Calls != want.Calls || r.Tokens != want.Tokens {
				t.Errorf("%s: Scan read %q (%d calls, %+v), ReadClaudeSession %q (%d, %+v)",
					r.SessionID, r.Files, r.Calls, r.Tokens, want.Files, want.Calls, want.Tokens)
			}
			if len(r.Files) > 1 {
				agents++
			}
		}
		if agents != 1 {
			t.Errorf("%v: %d sessions read with subagents, want 1", srcs.ClaudeDirs, agents)
		}
	}
}

// TestWalkInParallelIsOneWalk: the walk split by the root's directories lists what one fs.WalkDir of the
// whole tree lists, in its order, with its warnings.
func TestWalkInParallelIsOneWalk(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	tree := fstest.MapFS{
		"-a/s1.jsonl":                   {Data: []byte("{}\n")},
		"-a/s1/subagents/agent-x.jsonl": {Data: []byte("{}\n")},
		"-a/s3.jsonl":                   {Data: []byte("{}\n")},
		"-a/deep/x/s4.jsonl":            {Data: []byte("{}\n")},
		"-locked":                       {Mode: fs.ModeDir},
		"-b/s2.jsonl":                   {Data: []byte("{}\n")},
		"-b/s5":                         {Mode: fs.ModeSymlink},
		"-b/s5.jsonl":                   {Data: []byte("{}\n")},
		"-c/-locked":                    {Mode: fs.ModeDir},
		"-c/s6.jsonl":                   {Data: []byte("{}\n")},
		"top.jsonl":                     {Data: []byte("{}\n")},
		"z-notes.txt":                   {Data: []byte("x")},
	}
	for _, tc := range []struct {
		name string
		fsys fs.FS
	}{
		{"tree", tree},
		{"locked directories", errFS{errFS{tree, "-locked"}, "-c/-locked"}},
		{"root unreadable", errFS{tree, "."}},
		{"one project", fstest.MapFS{"-a/s1.jsonl": {Data: []byte("{}\n")}}},
		{"empty", fstest.MapFS{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			one := walker{root: "/c/projects", harness: HarnessClaude, keep: isClaudeTranscript}
			one.walk(tc.fsys, ".")
			wantFiles, wantWarn := one.done()
			files, warn := walkFS(tc.fsys, "/c/projects", HarnessClaude, isClaudeTranscript)
			if !slices.Equal(files, wantFiles) || !slices.Equal(warn, wantWarn) {
				t.Errorf("walkFS = %+v, %q\nwant %+v, %q", files, warn, wantFiles, wantWarn)
			}
		})
	}
}

// TestSameSession keeps one record per harness and session, the one with more calls, and says so.
func TestSameSession(t *testing.T) {
	rec := func(harness, id, file string, calls int) Record {
		return Record{Harness: harness, SessionID: id, Files: []string{file}, Calls: calls}
	}
	for _, tc := range []struct {
		name     string
		in, want []Record
		warn     []string
	}{
		{"none", nil, nil, nil},
		{"each once", []Record{rec("codex", "a", "/1", 1), rec("claude-code", "a", "/2", 2), rec("codex", "b", "/3", 3)},
			[]Record{rec("codex", "a", "/1", 1), rec("claude-code", "a", "/2", 2), rec("codex", "b", "/3", 3)}, nil},
		{"archived copy with fewer calls", []Record{rec("codex", "a", "/s", 5), rec("codex", "b", "/b", 1), rec("codex", "a", "/arch", 4)},
			[]Record{rec("codex", "a", "/s", 5), rec("codex", "b", "/b", 1)}, []string{"session a found twice (/s, /arch): kept /s"}},
		{"later copy with more calls", []Record{rec("codex", "a", "/s", 3), rec("codex", "a", "/arch", 4), rec("codex", "a", "/third", 1)},
			[]Record{rec("codex", "a", "/arch", 4)}, []string{"session a found twice (/arch, /s): kept /arch", "session a found twice (/arch, /third): kept /arch"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, warn := sameSession(tc.in)
			same := len(got) == len(tc.want)
			for i := 0; same && i < len(got); i++ {
				same = got[i].Harness == tc.want[i].Harness && got[i].SessionID == tc.want[i].SessionID && got[i].Files[0] == tc.want[i].Files[0]
			}
			if !same || !slices.Equal(warn, tc.warn) {
				t.Errorf("sameSession = %+v, %q; want %+v, %q", got, warn, tc.want, tc.warn)
			}
		})
	}
}

// TestScanSkipsUndatedFiles: an empty transcript or rollout, or one cut before its first dated line, is
// no session (it read as one dated year 1): a warning names it.
func TestScanSkipsUndatedFiles(t *testing.T) {
	dir := t.TempDir()
	var files []File
	for name, text := range map[string]string{
		"empty.jsonl": "", "cut.jsonl": `{"type":"user","message":{"role":"us`, "rollout-2026-12-01T00-00-00-x.jsonl": "",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		h := HarnessClaude
		if strings.HasPrefix(name, "rollout-") {
			h = HarnessCodex
		}
		files = append(files, File{Path: path, Harness: h, Size: int64(len(text))})
	}
	recs, warn := Scan(context.Background(), files, ScanOptions{})
	if len(recs) != 0 {
		t.Errorf("records %+v, want none", recs)
	}
	if n := strings.Count(strings.Join(warn, "\n"), "no dated line: not a session (yet), skipped"); n != 3 {
		t.Errorf("warnings %q: want one per file", warn)
	}
}
