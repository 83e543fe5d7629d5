package agentlog

import (
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAppendRecordAfterATornLine: a log whose last line was cut off (a disk full mid-append, a writer
// killed) has that fragment cut back before the next record is appended, so the log holds whole lines
// only; the fragment used to stay, and every later reading of the log warned of it.
func TestAppendRecordAfterATornLine(t *testing.T) {
	for _, before := range []string{"", `{"session_id":"whole","harness":"claude-code"}` + "\n"} {
		path := filepath.Join(t.TempDir(), "sessions.jsonl")
		if err := os.WriteFile(path, []byte(before+`{"session_id":"partial","harn`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := AppendRecord(path, Record{SessionID: "next", Harness: "claude-code"}); err != nil {
			t.Fatal(err)
		}
		if err := AppendRecord(path, Record{SessionID: "third", Harness: "claude-code"}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(b), before) || strings.Contains(string(b), "partial") {
			t.Fatalf("log:\n%s", b)
		}
		lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(b), before), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"session_id":"next"`) || !strings.HasPrefix(lines[1], `{"session_id":"third"`) {
			t.Fatalf("log:\n%s", b)
		}
		for _, l := range lines {
			if !json.Valid([]byte(l)) {
				t.Fatalf("a line that is not JSON: %q", l)
			}
		}
	}
}

// TestAppendRecordDiskFull: a record the disk has no room for leaves no fragment: the log is cut back to
// where it was, the append fails saying why, and the next append, with room again, is whole. The disk
// full is a file size limit (RLIMIT_FSIZE) in a child process, which gets EFBIG as it would ENOSPC.
func TestAppendRecordDiskFull(t *testing.T) {
	if path := os.Getenv("AGENTLOG_DISK_FULL"); path != "" {
		signal.Ignore(syscall.SIGXFSZ)
		fi, _ := os.Stat(path)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(fi.Size() + 96), Max: uint64(fi.Size() + 96)}); err != nil {
			t.Skip(err)
		}
		err := AppendRecord(path, Record{SessionID: strings.Repeat("s", 500), Harness: "claude-code"})
		if err == nil {
			t.Fatal("an append past the limit succeeded")
		}
		t.Log(err)
		return
	}
	path := filepath.Join(t.TempDir(), "sessions.jsonl")
	whole := `{"session_id":"whole","harness":"claude-code"}` + "\n"
	if err := os.WriteFile(path, []byte(whole), 0o600); err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestAppendRecordDiskFull$", "-test.v")
	child.Env = append(os.Environ(), "AGENTLOG_DISK_FULL="+path)
	if out, err := child.CombinedOutput(); err != nil || !strings.Contains(string(out), "file too large") {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(path); string(b) != whole {
		t.Fatalf("after the failed append the log is %q, want it as it was", b)
	}
	if err := AppendRecord(path, Record{SessionID: "next", Harness: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); len(lines) != 2 || !json.Valid([]byte(lines[1])) {
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
	err := AppendRecord(path, Record{SessionID: "s", Harness: "claude-code"})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("AppendRecord on a FIFO: %v", err)
	}
}
