package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/internal/filelock"
)

// registrySize is ContextSaver's MAX_PATTERNS (state.MaxPatterns): the registry's largest size. The
// store does not import state, so the figure is repeated here.
const registrySize = 50

func open(t testing.TB) (*Store, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	s, err := Open(filepath.Join(t.TempDir(), "nested", "saverd"), zerolog.New(&buf))
	if err != nil {
		t.Fatal(err)
	}
	return s, &buf
}

// appendID is the merge the registry tests use: add id to a JSON array of strings.
func appendID(id string) func(any) (any, error) {
	return func(old any) (any, error) {
		list, _ := old.([]any)
		return append(list, id), nil
	}
}

func ids(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("value %T, want []any", v)
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(string)
	}
	sort.Strings(out)
	return out
}

func TestOpenCreatesPrivateDir(t *testing.T) {
	s, _ := open(t)
	info, err := os.Stat(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, want drwx------", info.Mode())
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(file, zerolog.Nop()); err == nil {
		t.Fatal("Open on a file: want an error")
	}
	if _, err := Open("", zerolog.Nop()); err == nil {
		t.Fatal("Open on an empty path: want an error")
	}
}

func TestDefaultDir(t *testing.T) {
	cases := []struct{ xdg, home, want string }{
		{"/x/state", "/home/u", "/x/state/saverd"},
		{"", "/home/u", "/home/u/.local/state/saverd"},
		{"relative/state", "/home/u", "/home/u/.local/state/saverd"},
	}
	for _, c := range cases {
		t.Setenv("XDG_STATE_HOME", c.xdg)
		t.Setenv("HOME", c.home)
		got, err := DefaultDir()
		if err != nil || got != c.want {
			t.Errorf("xdg %q home %q: %q, %v; want %q", c.xdg, c.home, got, err, c.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	s, logs := open(t)
	key := "patterns.v5:/home/u/project" // state.StoreKey("/home/u/project")
	want := []any{
		map[string]any{"id": "execution:full-suite", "confidence": 0.9, "signature": nil},
		map[string]any{"id": "reading:api-logs", "kind": "Claude reads 日本語 logs 😀"},
	}
	if err := s.Update(key, func(old any) (any, error) {
		if old != nil {
			t.Errorf("old %v, want nil", old)
		}
		return want, nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("got %s\nwant %s", gj, wj)
	}
	// The file names its key, so a person can tell which project it is.
	raw, err := os.ReadFile(s.Path(key))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Key   string `json:"key"`
		Value []any  `json:"value"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.Key != key || len(env.Value) != 2 {
		t.Fatalf("file %s: %v", raw, err)
	}
	info, _ := os.Stat(s.Path(key))
	if info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want -rw-------", info.Mode())
	}
	if logs.Len() != 0 {
		t.Errorf("unexpected logs: %s", logs)
	}
}

func TestPath(t *testing.T) {
	s, _ := open(t)
	// The name is the first 16 hex digits of sha256(key): `printf 'patterns.v5:/p' | sha256sum`.
	if got, want := s.Path("patterns.v5:/p"), filepath.Join(s.Dir(), "bb35cd2fd38a3f68.json"); got != want {
		t.Fatalf("path %q, want %q", got, want)
	}
	if s.Path("a") == s.Path("b") {
		t.Fatal("two keys share a file")
	}
}

func TestAbsentKey(t *testing.T) {
	s, logs := open(t)
	v, err := s.Get("patterns.v5:/nowhere")
	if v != nil || err != nil {
		t.Fatalf("Get absent: %v, %v", v, err)
	}
	if _, err := os.Stat(s.Path("patterns.v5:/nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Get created the data file: %v", err)
	}
	if logs.Len() != 0 {
		t.Errorf("unexpected logs: %s", logs)
	}
}

func TestNullValue(t *testing.T) {
	s, _ := open(t)
	if err := s.Update("k", func(any) (any, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Get("k"); v != nil || err != nil {
		t.Fatalf("Get: %v, %v", v, err)
	}
}

func TestCorruptFilesAreSetAside(t *testing.T) {
	const key = "patterns.v5:/home/u/p"
	cases := []struct {
		name, content, reason string
	}{
		{"truncated", `{"key": "patterns.v5:/home/u/p", "value": [{"id": "a"`, "unexpected end"},
		{"empty", ``, "unexpected end"},
		{"garbage", "\x00\x01binary", "invalid character"},
		{"wrong key", `{"key": "patterns.v5:/elsewhere", "value": []}`, `holds key "patterns.v5:/elsewhere"`},
		{"no key", `{"value": []}`, `missing "key"`},
		{"no value", `{"key": "patterns.v5:/home/u/p"}`, `missing "key" or "value"`},
		{"not an object", `[1,2]`, "cannot unmarshal"},
		{"trailing data", `{"key": "patterns.v5:/home/u/p", "value": []} {}`, "invalid character"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, logs := open(t)
			s.now = func() time.Time { return time.Unix(0, 1234567890) }
			path := s.Path(key)
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			v, err := s.Get(key)
			if v != nil || err != nil {
				t.Fatalf("Get: %v, %v; want nil, nil", v, err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("corrupt file still in place: %v", err)
			}
			aside := path + ".corrupt-1234567890"
			kept, err := os.ReadFile(aside)
			if err != nil || string(kept) != c.content {
				t.Fatalf("moved-aside file: %q, %v", kept, err)
			}
			var entry map[string]any
			if err := json.Unmarshal(logs.Bytes(), &entry); err != nil {
				t.Fatalf("log %q: %v", logs, err)
			}
			if entry["level"] != "warn" || entry["path"] != path || entry["moved_to"] != aside ||
				!strings.Contains(fmt.Sprint(entry["error"]), c.reason) {
				t.Fatalf("log entry %v; want warn with path, moved_to and %q", entry, c.reason)
			}
			// The session starts empty and the next write succeeds.
			if err := s.Update(key, appendID("x")); err != nil {
				t.Fatal(err)
			}
			v, _ = s.Get(key)
			if got := ids(t, v); len(got) != 1 || got[0] != "x" {
				t.Fatalf("after rewrite: %v", got)
			}
		})
	}
}

func TestUpdateOverCorruptFileStartsFromNil(t *testing.T) {
	s, logs := open(t)
	if err := os.WriteFile(s.Path("k"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("k", func(old any) (any, error) {
		if old != nil {
			t.Errorf("old %v, want nil", old)
		}
		return []any{"fresh"}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), `"level":"warn"`) {
		t.Fatalf("no warning logged: %s", logs)
	}
	matches, _ := filepath.Glob(s.Path("k") + ".corrupt-*")
	if len(matches) != 1 {
		t.Fatalf("moved-aside files: %v", matches)
	}
}

func TestMergeErrorWritesNothing(t *testing.T) {
	s, _ := open(t)
	if err := s.Update("k", appendID("a")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := s.Update("k", func(any) (any, error) { return nil, boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "merge store k") {
		t.Fatalf("err %v", err)
	}
	err = s.Update("k", func(any) (any, error) { return func() {}, nil })
	if err == nil || !strings.Contains(err.Error(), "encode store k") {
		t.Fatalf("unencodable value: err %v", err)
	}
	v, _ := s.Get("k")
	if got := ids(t, v); len(got) != 1 || got[0] != "a" {
		t.Fatalf("value changed: %v", got)
	}
}

func TestIOErrorsCarryContext(t *testing.T) {
	// A data file that is a directory cannot be read: an I/O error, not corruption, and nothing moves.
	s, logs := open(t)
	if err := os.Mkdir(s.Path("k"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := s.Get("k")
	if err == nil || !strings.Contains(err.Error(), "read store "+s.Path("k")) {
		t.Fatalf("Get on a directory: %v", err)
	}
	err = s.Update("k", appendID("b"))
	if err == nil || !strings.Contains(err.Error(), "read store "+s.Path("k")) {
		t.Fatalf("Update over an unreadable file: %v", err)
	}
	if logs.Len() != 0 {
		t.Fatalf("an I/O error was treated as corruption: %s", logs)
	}
	// The directory vanished under the daemon: both calls say which file they could not lock.
	if err := os.RemoveAll(s.Dir()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("k"); err == nil || !strings.Contains(err.Error(), "lock store "+s.lockPath("k")) {
		t.Fatalf("Get in a missing dir: %v", err)
	}
	if err := s.Update("k", appendID("b")); err == nil || !strings.Contains(err.Error(), "lock store") {
		t.Fatalf("Update in a missing dir: %v", err)
	}
}

func TestWriteAtomicErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone", "f.json")
	if err := writeAtomic(missing, []byte("{}")); err == nil || !strings.Contains(err.Error(), "write store "+missing) {
		t.Fatalf("write into a missing dir: %v", err)
	}
	// Renaming over a non-empty directory fails: the temp file must not be left behind.
	target := filepath.Join(dir, "t.json")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(target, []byte("{}")); err == nil || !strings.Contains(err.Error(), "write store "+target) {
		t.Fatalf("rename over a directory: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"+tempMark+"*"))
	if len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

func TestStrayTempFileIsHarmlessAndCleaned(t *testing.T) {
	s, logs := open(t)
	const key = "patterns.v5:/p"
	if err := s.Update(key, appendID("old")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.Path(key))
	// A writer that crashed between writing its temp file and renaming it leaves this behind.
	stray := s.Path(key) + tempMark + "987654"
	if err := os.WriteFile(stray, []byte(`{"key": "patterns.v5:/p", "value": ["half`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Another key's temp file belongs to another writer: it is left alone.
	other := s.Path("other") + tempMark + "1"
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := s.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, v); len(got) != 1 || got[0] != "old" {
		t.Fatalf("old file not intact: %v", got)
	}
	after, _ := os.ReadFile(s.Path(key))
	if !bytes.Equal(before, after) {
		t.Fatal("Get changed the file")
	}
	if err := s.Update(key, appendID("new")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stray); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stray temp file not cleaned: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("another key's temp file was removed: %v", err)
	}
	v, _ = s.Get(key)
	if got := ids(t, v); strings.Join(got, ",") != "new,old" {
		t.Fatalf("value %v", got)
	}
	if strings.Contains(logs.String(), "warn") {
		t.Fatalf("a stray temp file was treated as corruption: %s", logs)
	}
}

func TestConcurrentGoroutinesLoseNothing(t *testing.T) {
	s, logs := open(t)
	const key, workers, each = "patterns.v5:/race", 8, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := s.Update(key, appendID(fmt.Sprintf("g%d-%d", w, i))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	// Readers run alongside: none may ever see a half-written file.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				v, err := s.Get(key)
				if err != nil {
					t.Error(err)
					return
				}
				if v != nil {
					if _, ok := v.([]any); !ok {
						t.Errorf("reader saw %T", v)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	v, err := s.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	got := ids(t, v)
	if len(got) != workers*each {
		t.Fatalf("%d ids, want %d", len(got), workers*each)
	}
	for i := 1; i < len(got); i++ {
		if got[i] == got[i-1] {
			t.Fatalf("duplicate id %s", got[i])
		}
	}
	if logs.Len() != 0 {
		t.Fatalf("a reader saw a corrupt file: %s", logs)
	}
}

// TestHelperProcess is not a test: TestConcurrentProcessesLoseNothing runs the test binary again with
// it selected, so two real processes append to one key.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("SAVERD_STORE_HELPER_DIR")
	if dir == "" {
		return
	}
	s, err := Open(dir, zerolog.Nop())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	n, _ := strconv.Atoi(os.Getenv("SAVERD_STORE_HELPER_N"))
	name := os.Getenv("SAVERD_STORE_HELPER_NAME")
	for i := range n {
		if err := s.Update(os.Getenv("SAVERD_STORE_HELPER_KEY"), appendID(fmt.Sprintf("%s-%d", name, i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	os.Exit(0)
}

func TestConcurrentProcessesLoseNothing(t *testing.T) {
	s, logs := open(t)
	const key, each = "patterns.v5:/two-daemons", 60
	var cmds []*exec.Cmd
	for _, name := range []string{"p1", "p2"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(),
			"SAVERD_STORE_HELPER_DIR="+s.Dir(),
			"SAVERD_STORE_HELPER_KEY="+key,
			"SAVERD_STORE_HELPER_NAME="+name,
			"SAVERD_STORE_HELPER_N="+strconv.Itoa(each),
		)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	// This process writes too, so three writers contend.
	for i := range each {
		if err := s.Update(key, appendID(fmt.Sprintf("main-%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	v, err := s.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	got := ids(t, v)
	want := make([]string, 0, 3*each)
	for _, name := range []string{"main", "p1", "p2"} {
		for i := range each {
			want = append(want, fmt.Sprintf("%s-%d", name, i))
		}
	}
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %d ids, want %d: lost or duplicated", len(got), len(want))
	}
	if logs.Len() != 0 {
		t.Fatalf("unexpected logs: %s", logs)
	}
}

func BenchmarkUpdate(b *testing.B) {
	s, _ := open(b)
	const key = "patterns.v5:/bench"
	// A registry of the size ContextSaver keeps: MAX_PATTERNS stored patterns.
	seed := make([]any, 0, registrySize)
	for i := range registrySize {
		seed = append(seed, map[string]any{
			"id": fmt.Sprintf("execution:pattern-%d", i), "category": "execution",
			"kind":        "Claude keeps running the whole test suite after every single-file edit",
			"why":         "the suite ran in full three times while only one file changed between runs",
			"alternative": "run only the tests covering the files you changed",
			"confidence":  0.8, "signature": map[string]any{"tool": "Bash", "key": "test:npm test"},
		})
	}
	if err := s.Update(key, func(any) (any, error) { return seed, nil }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := s.Update(key, func(old any) (any, error) { return old, nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPanickingMergeReleasesTheLock(t *testing.T) {
	s, _ := open(t)
	func() {
		defer func() { _ = recover() }()
		_ = s.Update("k", func(any) (any, error) { panic("merge bug") })
	}()
	done := make(chan error, 1)
	go func() { done <- s.Update("k", appendID("after")) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was never released")
	}
}

// TestOversizeAndSpecialFilesAreSetAside: a registry file was read whole before anything was checked
// (100 MB stalled every session's start for 2.45 s), and a FIFO in its place blocked the open for good.
// Both are set aside like a corrupt file, and the session starts empty.
func TestOversizeAndSpecialFilesAreSetAside(t *testing.T) {
	const key = "patterns.v5:/home/u/p"
	cases := []struct {
		name   string
		make   func(path string) error
		reason string
	}{
		{"oversize", func(path string) error {
			return os.WriteFile(path, bytes.Repeat([]byte(" "), MaxFileSize+1), 0o600)
		}, "file too large"},
		{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o600) }, "not a regular file"},
		{"deeply nested", func(path string) error {
			return os.WriteFile(path, []byte(`{"key":"`+key+`","value":`+strings.Repeat("[", 10_000)+strings.Repeat("]", 10_000)+`}`), 0o600)
		}, "nesting deeper"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, logs := open(t)
			path := s.Path(key)
			if err := c.make(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var v any
			var err error
			go func() { v, err = s.Get(key); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Fatal("Get blocked")
			}
			if v != nil || err != nil {
				t.Fatalf("Get: %v, %v; want nil, nil", v, err)
			}
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("file still in place: %v", err)
			}
			if !strings.Contains(logs.String(), c.reason) {
				t.Fatalf("log %s lacks %q", logs, c.reason)
			}
			if err := s.Update(key, appendID("x")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestOneLockFileNotFollowed: every key locked a file of its own, so 100,000 projects left 100,000 empty
// lock files; and the lock was opened through a symlink, creating (or truncating nothing but opening for
// writing) whatever it pointed at.
func TestOneLockFileNotFollowed(t *testing.T) {
	s, _ := open(t)
	for i := range 20 {
		if err := s.Update(fmt.Sprint("key", i), appendID("x")); err != nil {
			t.Fatal(err)
		}
	}
	locks, _ := filepath.Glob(filepath.Join(s.Dir(), "*.lock"))
	if len(locks) != 1 {
		t.Fatalf("lock files %v, want one", locks)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Remove(locks[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, locks[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("key0", appendID("y")); err == nil {
		t.Fatal("Update locked through a symlink")
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the symlink's target was created: %v", err)
	}
}

// TestLockHeldElsewhere: a registry lock some other process keeps (a hung daemon, a person's flock) costs
// a read or a write the wait, then an error naming the lock, not forever; once it is let go, the store
// works as before.
func TestLockHeldElsewhere(t *testing.T) {
	s, _ := open(t)
	was := lockWait
	lockWait = 100 * time.Millisecond
	t.Cleanup(func() { lockWait = was })
	const key = "patterns.v5:/held"
	if err := s.Update(key, appendID("a")); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(s.lockPath(key), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(holder, true); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, getErr := s.Get(key)
	updateErr := s.Update(key, appendID("b"))
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("waited %s", d)
	}
	for _, err := range []error{getErr, updateErr} {
		if err == nil || !strings.Contains(err.Error(), "registry.lock: held by another process for over 100ms") {
			t.Errorf("err = %v", err)
		}
	}
	holder.Close()
	if err := s.Update(key, appendID("c")); err != nil {
		t.Fatal(err)
	}
	v, err := s.Get(key)
	if got := ids(t, v); err != nil || strings.Join(got, ",") != "a,c" {
		t.Fatalf("after the lock was let go: %v, %v", got, err)
	}
}

// TestOwnWritesNeverTimeOutOnEachOther: fifty writers in one process (a daemon's sessions deciding at
// once) each wait for the ones before them, however long the queue, and all land: the lock's wait bounds
// only how long another process may keep it. (They used to queue on the file lock itself, and with
// every fsync a daemon's own writes timed out as "held by another process".)
func TestOwnWritesNeverTimeOutOnEachOther(t *testing.T) {
	s, _ := open(t)
	was := lockWait
	lockWait = 20 * time.Millisecond // well under fifty writes with an fsync each
	t.Cleanup(func() { lockWait = was })
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 50 {
		wg.Go(func() {
			// Two stores on one directory, as two servers in one process would open it.
			st := s
			if i%2 == 1 {
				var err error
				if st, err = Open(s.Dir(), zerolog.Nop()); err != nil {
					errs <- err
					return
				}
			}
			if err := st.Update("patterns.v5:/p"+strconv.Itoa(i%5), appendID(strconv.Itoa(i))); err != nil {
				errs <- err
			}
			if _, err := st.Get("patterns.v5:/p" + strconv.Itoa(i%5)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	for k := range 5 {
		v, err := s.Get("patterns.v5:/p" + strconv.Itoa(k))
		if err != nil {
			t.Fatal(err)
		}
		n += len(ids(t, v))
	}
	if n != 50 {
		t.Fatalf("%d writes on disk, want 50", n)
	}
}
