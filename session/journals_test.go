package session

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFOJournalDoesNotHang: a FIFO where a journal or a script is expected blocked the open, and with
// it the hook and the daemon, for good. Only regular files are read; the run is kept, with no loops.
func TestFIFOJournalDoesNotHang(t *testing.T) {
	h := newHarness(t, nil)
	w := workflow{dir: t.TempDir(), script: filepath.Join(t.TempDir(), "review.workflow.ts")}
	for _, p := range []string{filepath.Join(w.dir, "journal.jsonl"), w.script} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h.turnStart(2_000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.launch(3_000, w)
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		// Unblock the reads so the test ends.
		for _, p := range []string{filepath.Join(w.dir, "journal.jsonl"), w.script} {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Fatal("the launch hung on a FIFO")
	}
	st := h.st()
	if len(st.Runs) != 1 || len(st.Loops) != 0 || len(st.Runs[0].Phases) != 0 {
		t.Fatalf("runs %+v loops %+v", st.Runs, st.Loops)
	}
}
