package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/saverd/saverd/internal/golden"
)

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, name, string(got))
}

// TestReplayGolden plays every recording under testdata/replay through a fresh daemon and compares
// everything it printed, twice over to prove a replay is deterministic.
func TestReplayGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "replay", "*.ndjson"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no replay inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".ndjson")
		t.Run(name, func(t *testing.T) {
			var runs [2]bytes.Buffer
			for i := range runs {
				var stderr bytes.Buffer
				if code := runReplay(context.Background(), []string{"--show", "band,pane,debug", "--width", "90", in}, &runs[i], &stderr); code != 0 {
					t.Fatalf("replay exit %d: %s", code, stderr.String())
				}
			}
			if !bytes.Equal(runs[0].Bytes(), runs[1].Bytes()) {
				t.Fatal("two replays of one recording printed different output")
			}
			golden(t, filepath.Join("replay", name+".golden"), runs[0].Bytes())
		})
	}
}

// TestDemoGolden: README's main command prints the same sample every time.
func TestDemoGolden(t *testing.T) {
	var out, stderr bytes.Buffer
	if code := runDemo(context.Background(), nil, &out, &stderr); code != 0 {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"2 wasters waiting", "WASTERS (2)", "DECIDED (1)", "RULES TO WRITE (1)", "saved"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	golden(t, "demo.golden", out.Bytes())
}

func TestReplayUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		say  string
	}{
		{nil, 2, "exactly one FILE"},
		{[]string{"--show", "poster", "x.ndjson"}, 2, "--show"},
		{[]string{filepath.Join(t.TempDir(), "missing.ndjson")}, 1, "no such file"},
	}
	for _, tc := range cases {
		var out, stderr bytes.Buffer
		if code := runReplay(context.Background(), tc.args, &out, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.say) {
			t.Errorf("replay %q = %d %q, want %d mentioning %q", tc.args, code, stderr.String(), tc.code, tc.say)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.ndjson")
	_ = os.WriteFile(bad, []byte("{\"jsonrpc\":\"2.0\"}\nnot json at all\n"), 0o644)
	var out, stderr bytes.Buffer
	if code := runReplay(context.Background(), []string{bad}, &out, &stderr); code != 1 || !strings.Contains(stderr.String(), "bad.ndjson:2") {
		t.Errorf("a bad line: exit %d, %q; want 1 naming the file and line", code, stderr.String())
	}
}
