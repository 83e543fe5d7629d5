package agentlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDaemonRecordsKeepTheLast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.jsonl")
	body := `{"session_id":"a","calls":3}
not json
{"session_id":"b","calls":1}
{"session_id":"a","calls":9}
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, warn := DaemonRecords(path)
	if len(recs) != 2 || !strings.Contains(string(recs[0]), `"calls":9`) || !strings.Contains(string(recs[1]), `"session_id":"b"`) {
		t.Fatalf("records %s", recs)
	}
	if len(warn) != 1 || !strings.Contains(warn[0], path+":2: not a session record") {
		t.Fatalf("warnings %q", warn)
	}
	if recs, warn := DaemonRecords(filepath.Join(t.TempDir(), "none")); recs != nil || warn != nil {
		t.Fatalf("a missing log: %v %v", recs, warn)
	}
}

// TestReadForks: a fork's line names its parent; a bad line is a warning naming the file and line.
func TestReadForks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "forks.jsonl")
	body := `{"session_id":"f1","parent":"s1","harness":"claude-code","purpose":"judge"}
{"session_id":"f2"}
{"session_id":"f3","parent":"f3"}
{"session_id":"t1","parent":"s1","harness":"codex","purpose":"judge","at":"2026-12-01T20:00:00Z","model":"gpt-5.5","tokens":{"input":600,"output":100,"cache_read":5500,"cache_write":0}}
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	forks, warn := ReadForks(path)
	if len(forks) != 2 || forks["f1"].Parent != "s1" || len(warn) != 2 || !strings.Contains(warn[0], path+":2:") || !strings.Contains(warn[1], path+":3:") {
		t.Errorf("forks %v, warnings %q", forks, warn)
	}
	if tok := forks["t1"].Tokens; tok == nil || *tok != (Tokens{Input: 600, Output: 100, CacheRead: 5500}) || forks["t1"].Model != "gpt-5.5" {
		t.Errorf("t1 = %+v", forks["t1"])
	}
	// AppendFork writes a line ReadForks reads back.
	rec := ForkRecord{SessionID: "f9", Parent: "s9", Harness: "claude-code", Purpose: "judge", At: "2026-12-01T20:00:00Z",
		Model: "claude-opus-5-5", Tokens: &Tokens{Input: 69, Output: 15, CacheRead: 321, CacheWrite: 20}}
	if err := AppendFork(path, rec); err != nil {
		t.Fatal(err)
	}
	forks, _ = ReadForks(path)
	if got := forks["f9"]; got.Parent != "s9" || got.Tokens == nil || *got.Tokens != *rec.Tokens {
		t.Errorf("appended fork read back as %+v", got)
	}
}
