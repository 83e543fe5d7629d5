package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	goldenfile "github.com/saverd/saverd/internal/golden"
)

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, name, string(got))
}

// TestDemoGolden: README's main command prints the same sample every time.
func TestDemoGolden(t *testing.T) {
	var out, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo"}, nil, &out, &stderr); code != 0 {
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
		if code := run(context.Background(), append([]string{"replay"}, tc.args...), nil, &out, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.say) {
			t.Errorf("replay %q = %d %q, want %d mentioning %q", tc.args, code, stderr.String(), tc.code, tc.say)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.ndjson")
	_ = os.WriteFile(bad, []byte("{\"jsonrpc\":\"2.0\"}\nnot json at all\n"), 0o644)
	var out, stderr bytes.Buffer
	if code := run(context.Background(), []string{"replay", bad}, nil, &out, &stderr); code != 1 || !strings.Contains(stderr.String(), "bad.ndjson:2") {
		t.Errorf("a bad line: exit %d, %q; want 1 naming the file and line", code, stderr.String())
	}
}

// TestReplayOfALiveRecording: a recording of a real host ends with session.end and shutdown, and has
// a rule written. Replay used to write the rule again at its recorded path (one CLAUDE.md got five
// copies), and --show failed with `server shutting down`. It writes nothing outside a temp dir unless
// --write asks, and draws the views as they were before the end.
func TestReplayOfALiveRecording(t *testing.T) {
	cwd, rec := t.TempDir(), filepath.Join(t.TempDir(), "session.ndjson")
	c := startDaemon(t, false, judgeReply, "--store", t.TempDir(), "--record", rec)
	startSession(c, "s", cwd)
	runTwelve(c, "s", cwd)
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "check"}, nil)
	c.waitFor("the check", func() bool { return slices.Contains(c.toasts(), "ContextSaver: 1 new waster") })
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "fix 1"}, nil)
	var wrote struct{ Text string }
	c.ok("ui.action", map[string]any{"sessionId": "s", "action": "write", "patternId": "execution:full-suite"}, &wrote)
	claudeMD := filepath.Join(cwd, "CLAUDE.md")
	if wrote.Text != "Wrote "+claudeMD {
		t.Fatalf("live write = %q", wrote.Text)
	}
	c.ok("session.end", map[string]any{"sessionId": "s"}, nil)
	c.ok("shutdown", nil, nil)
	c.stdin.Close()
	waitExit(t, c.cmd, "EOF")
	if err := os.Remove(claudeMD); err != nil {
		t.Fatal(err)
	}

	var out, stderr bytes.Buffer
	if code := run(context.Background(), []string{"replay", rec, "--show", "pane"}, nil, &out, &stderr); code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(claudeMD); !os.IsNotExist(err) {
		t.Fatalf("replay wrote %s without --write: %v", claudeMD, err)
	}
	if !strings.Contains(out.String(), `"Wrote `+claudeMD+`"`) || !strings.Contains(out.String(), "DECIDED (1)") {
		t.Fatalf("replay output lacks the recorded reply or the pane before the end:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"replay", rec, "--write"}, nil, &out, &stderr); code != 0 {
		t.Fatalf("replay --write exit %d: %s", code, stderr.String())
	}
	if text := readFile(t, claudeMD); strings.Count(text, "## ContextSaver") != 1 {
		t.Fatalf("CLAUDE.md after replay --write:\n%s", text)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestViewWidthIsChecked(t *testing.T) {
	for _, args := range [][]string{{"demo", "--width", "5"}, {"replay", "x.ndjson", "--width", "5000"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--width: want 40 to 1000 columns") {
			t.Errorf("saverd %v: exit %d, %q", args, code, errOut.String())
		}
	}
}
