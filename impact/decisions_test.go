package impact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadDecisions(t *testing.T) {
	lines := []string{
		`{"point":"commit_link","subject":"s:00000001","probabilities":{"yes":0.9,"no":0.1},"ts":"2025-06-02T12:00:00Z"}`,
		`{"point":"commit_link","subject":"s:00000001","probabilities":{"yes":0.2,"no":0.8},"ts":"2025-06-02T11:00:00Z"}`, // older, later line
		`{"point":"commit_link","subject":"s:00000002","probabilities":{"yes":0.7},"ts":"2025-06-02T12:00:00Z"}`,
		`{"point":"commit_link","subject":"s:00000002","probabilities":{"yes":0.6},"ts":"2025-06-02T12:00:00Z"}`, // same ts: later line wins
		`{"point":"commit_link","subject":"s:00000003","probabilities":{"no":1},"ts":"2025-06-02T12:00:00Z"}`,    // no yes: 0
		`{"point":"other_point","subject":"s:00000004","probabilities":{"yes":1},"ts":"2025-06-02T12:00:00Z"}`,
		`{"point":"commit_link","subject":"s:00000005","probabilities":{"yes":1.5},"ts":"2025-06-02T12:00:00Z"}`,
		`{"point":"commit_link","subject":"s:00000006","probabilities":{"yes":1},"ts":"noon"}`,
		`garbage`,
		``,
	}
	p := filepath.Join(t.TempDir(), "decisions.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, warn := readDecisions(p)
	want := map[string]float64{"s:00000001": 0.9, "s:00000002": 0.6, "s:00000003": 0}
	if len(got) != len(want) {
		t.Errorf("decisions = %v, want %v", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("decision %s = %v (%v), want %v", k, g, ok, v)
		}
	}
	for i, w := range []string{p + ":7: subject s:00000005: probability 1.5", p + ":8: subject s:00000006: bad ts", p + ":9: bad JSON"} {
		if i >= len(warn) || !strings.Contains(warn[i], w) {
			t.Errorf("warnings = %q, want %q at %d", warn, w, i)
		}
	}
}

func TestDecide(t *testing.T) {
	p := filepath.Join(t.TempDir(), "decisions.jsonl")
	when := time.Date(2025, 6, 2, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	if err := Decide(p, "sess:1:abcdef01", 0.8, when); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"point":"commit_link","subject":"sess:1:abcdef01","probabilities":{"yes":0.8,"no":0.2},"ts":"2025-06-02T10:00:00Z"}` + "\n"
	if string(b) != want {
		t.Errorf("line = %s, want %s", b, want)
	}
	var l decisionLine
	if err := json.Unmarshal(b, &l); err != nil || l.Probabilities["no"] != 0.2 {
		t.Errorf("round trip: %+v, %v", l, err)
	}
	for _, tc := range []struct {
		path, subject string
		p             float64
		want          string
	}{
		{p, "no-hash", 0.5, "not <session_id>:<8 hex digits>"},
		{p, "s:ABCDEF01", 0.5, "not <session_id>"},
		{p, "s:abcdef01", 1.01, "outside [0, 1]"},
		{p, "s:abcdef01", -0.1, "outside [0, 1]"},
		{"", "s:abcdef01", 0.5, "no decisions file"},
		{filepath.Join(t.TempDir(), "no", "dir", "d.jsonl"), "s:abcdef01", 0.5, "no such file"},
	} {
		if err := Decide(tc.path, tc.subject, tc.p, when); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decide(%q, %q, %v) = %v, want error with %q", tc.path, tc.subject, tc.p, err, tc.want)
		}
	}
}
