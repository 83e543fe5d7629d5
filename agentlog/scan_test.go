package agentlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestWalkUnreadableDirectory(t *testing.T) {
	fsys := fstest.MapFS{
		"-a/s1.jsonl":                   {Data: []byte("{}\n")},
		"-a/s1/subagents/agent-x.jsonl": {Data: []byte("{}\n")},
		"-locked":                       {Mode: fs.ModeDir},
		"-b/s2.jsonl":                   {Data: []byte("{}\n")},
	}
	locked := errFS{fsys, "-locked"}
	files, _, warn := walkFS(locked, "/c/projects", "claude-code", isTranscript, true)
	if len(files) != 2 {
		t.Errorf("files = %+v, want s1 and s2 (a subagent is read with its session)", files)
	}
	if len(warn) != 1 || !strings.Contains(warn[0], "/c/projects/-locked: permission denied") {
		t.Errorf("warnings = %q, want the locked directory named", warn)
	}
}

// isTranscript keeps Claude Code's transcripts as harness/claude's Discover does: <project>/<session>.jsonl,
// not a subagent's.
func isTranscript(path string) bool {
	return strings.HasSuffix(path, ".jsonl") && filepath.Base(filepath.Dir(path)) != "subagents"
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
				rec := Record{SessionID: big, Harness: "claude-code", Calls: w*1000 + i}
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
			one := walker{root: "/c/projects", harness: "claude-code", keep: isTranscript, seeDirs: true}
			one.walk(tc.fsys, ".")
			files, dirs, warn := walkFS(tc.fsys, "/c/projects", "claude-code", isTranscript, true)
			if !slices.Equal(files, one.files) || !maps.Equal(dirs, one.dirs) || !slices.Equal(warn, one.warn) {
				t.Errorf("walkFS = %+v, %v, %q\nwant %+v, %v, %q", files, dirs, warn, one.files, one.dirs, one.warn)
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
