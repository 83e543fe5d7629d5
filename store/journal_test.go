package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func write(path, after string) Write {
	return Write{Path: path, Shown: path, After: after, Kind: "claude-md"}
}

// TestJournalLastFirst: writes come back newest first, one project's never another's, at most
// JournalDepth of them; a take that is not done keeps its write.
func TestJournalLastFirst(t *testing.T) {
	j, err := OpenJournal(filepath.Join(t.TempDir(), "writes"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range JournalDepth + 3 {
		if err := j.Record("/p", write(fmt.Sprint("/p/f", i), fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Record("/q", write("/q/f", "q")); err != nil {
		t.Fatal(err)
	}
	// Not done: the write stays, and its error comes back.
	boom := errors.New("busy")
	ok, err := j.Undo("/p", func(w Write) (bool, error) { return false, boom })
	if !ok || !errors.Is(err, boom) {
		t.Fatalf("Undo not done = %v, %v", ok, err)
	}
	var got []string
	for {
		ok, err := j.Undo("/p", func(w Write) (bool, error) { got = append(got, w.After); return true, nil })
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	want := []string{"12", "11", "10", "9", "8", "7", "6", "5", "4", "3"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("undone %v, want %v", got, want)
	}
	ok, err = j.Undo("/q", func(w Write) (bool, error) { got = append(got, w.After); return true, nil })
	if !ok || err != nil || got[len(got)-1] != "q" {
		t.Fatalf("the other project's write: %v %v %v", ok, err, got)
	}
	info, err := os.Stat(j.path("/p"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("journal file: %v %v", info, err)
	}
}

// TestJournalKeepsWhatItCannotRead: a journal that does not parse, or is another project's, is an error
// and is never written over: its writes stay there to be undone once it is mended.
func TestJournalKeepsWhatItCannotRead(t *testing.T) {
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"{not json", `{"project":"/elsewhere","writes":[]}`} {
		if err := os.WriteFile(j.path("/p"), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := j.Record("/p", write("/p/f", "x")); err == nil || !strings.Contains(err.Error(), "read journal") {
			t.Fatalf("Record over %q: %v", bad, err)
		}
		if _, err := j.Undo("/p", func(Write) (bool, error) { return true, nil }); err == nil {
			t.Fatalf("Undo over %q: no error", bad)
		}
		if b, _ := os.ReadFile(j.path("/p")); string(b) != bad {
			t.Fatalf("the journal was written over: %q", b)
		}
	}
}

// TestJournalTwoDaemons: two daemons sharing a state directory record concurrently and lose nothing.
func TestJournalTwoDaemons(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range JournalDepth {
		j := a
		if i%2 == 1 {
			j = b
		}
		wg.Go(func() {
			if err := j.Record("/p", write("/p/f", fmt.Sprint(i))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for {
		ok, err := a.Undo("/p", func(w Write) (bool, error) { seen[w.After] = true; return true, nil })
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	if len(seen) != JournalDepth {
		t.Fatalf("%d writes kept of %d: %v", len(seen), JournalDepth, seen)
	}
}

// TestHandled: a handled rule is kept once, per session, the oldest dropped past HandledDepth, and the
// project's writes are left as they are.
func TestHandled(t *testing.T) {
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record("/p", Write{Path: "/p/CLAUDE.md", After: "x", PatternID: "a", Kind: "claude-md"}); err != nil {
		t.Fatal(err)
	}
	a := Handled{Session: "s1", PatternID: "a", Kind: "claude-md"}
	for _, h := range []Handled{a, a, {Session: "s2", PatternID: "b", Kind: "skill"}} {
		if err := j.Handle("/p", h); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := j.HandledBy("/p", "s1"); err != nil || len(got) != 1 || got[0] != a {
		t.Fatalf("HandledBy(s1) = %v, %v; want %v once", got, err, a)
	}
	if got, _ := j.HandledBy("/other", "s1"); len(got) != 0 {
		t.Fatalf("another project's: %v", got)
	}
	for i := range HandledDepth {
		if err := j.Handle("/p", Handled{Session: "s3", PatternID: fmt.Sprint(i), Kind: "claude-md"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := j.HandledBy("/p", "s1"); len(got) != 0 {
		t.Fatalf("past HandledDepth the oldest is still kept: %v", got)
	}
	if got, _ := j.HandledBy("/p", "s3"); len(got) != HandledDepth {
		t.Fatalf("%d of s3's kept, want %d", len(got), HandledDepth)
	}
	var undone bool
	if _, err := j.Undo("/p", func(w Write) (bool, error) { undone = w.PatternID == "a"; return true, nil }); err != nil || !undone {
		t.Fatalf("the write under the handled rules: %v, %v", undone, err)
	}
}
