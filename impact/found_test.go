package impact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Records found in the agents' logs come first; the daemon's sessions log repeating one of them is no
// duplicate worth a warning, while a repeat inside the files still is.
func TestReadSessionsFound(t *testing.T) {
	line := func(id, harness string) string {
		return `{"session_id":"` + id + `","harness":"` + harness + `","repo":null,"project":"p","start":"2025-06-02T10:00:00Z","end":"2025-06-02T11:00:00Z","calls":1,"cost":{"total":null}}`
	}
	file := filepath.Join(t.TempDir(), "sessions.jsonl")
	if err := os.WriteFile(file, []byte(line("a", "claude-code")+"\n"+line("b", "claude")+"\n"+line("b", "claude")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	found := []json.RawMessage{json.RawMessage(line("a", "claude-code")), json.RawMessage(`{"harness":"codex"}`)}
	got, warn := readSessions(found, []string{file})
	if len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" {
		t.Fatalf("sessions %+v, want a (found) and b (file)", got)
	}
	joined := strings.Join(warn, "\n")
	for _, want := range []string{
		"agent logs: record 2: missing session_id, skipped",
		`session b: harness "claude" is not a known harness id`,
		`duplicate session_id "b"`,
		"session a: cost.total is null",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, `duplicate session_id "a"`) {
		t.Errorf("the file's repeat of a found session was warned about:\n%s", joined)
	}
}
