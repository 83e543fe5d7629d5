package agentlog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAppendRecordAfterATornLine: a log whose last line was cut off loses only that line; the record
// appended after it is a line of its own.
func TestAppendRecordAfterATornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(path, []byte(`{"session_id":"partial","harn`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AppendRecord(path, Record{SessionID: "next", Harness: HarnessClaude}); err != nil {
		t.Fatal(err)
	}
	if err := AppendRecord(path, Record{SessionID: "third", Harness: HarnessClaude}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], `{"session_id":"next"`) || !strings.HasPrefix(lines[2], `{"session_id":"third"`) {
		t.Fatalf("log:\n%s", b)
	}
}

// TestAppendRecordRefusesAFIFO: a FIFO where the log should be is refused at once (its open used to wait
// for a reader forever, a thread each time).
func TestAppendRecordRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	err := AppendRecord(path, Record{SessionID: "s", Harness: HarnessClaude})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("AppendRecord on a FIFO: %v", err)
	}
}
