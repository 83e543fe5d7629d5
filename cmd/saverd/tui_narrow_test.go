//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/hookcmd"
)

// narrowCols is a common terminal's width, narrower than the pane's own 100 columns.
const narrowCols = 80

// sessionOf is the Claude Code session the scripted API's requests name (metadata.user_id's session_id).
func sessionOf(t *testing.T, reqs []claudeapi.Request) string {
	t.Helper()
	for _, r := range reqs {
		meta, _ := r.JSON["metadata"].(map[string]any)
		user, _ := meta["user_id"].(string)
		var id struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(user), &id) == nil && id.SessionID != "" {
			return id.SessionID
		}
	}
	t.Fatal("no request names its session")
	return ""
}

// viewText is the daemon's drawing of a session's band or pane at width columns, asked over its socket.
func viewText(t *testing.T, sock, id, view string, width int) string {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"sessionId": id, "view": view, "width": width})
	out, err := hookcmd.Call(sock, []byte(`{"jsonrpc":"2.0","id":1,"method":"view.text","params":`+string(params)+"}\n"), 5*time.Second, "")
	if err != nil {
		t.Fatalf("view.text %s: %v", view, err)
	}
	return string(out)
}

// shownLines are the lines of the newest blocked line's answer as the screen shows them, without the
// UI's indent and with blank lines dropped.
func shownLines(screen string) []string {
	var out []string
	for i, l := range strings.Split(lastAnswer(screen), "\n") {
		if l = strings.TrimRight(strings.TrimPrefix(l, "  "), " "); i > 0 && l != "" {
			out = append(out, l)
		}
	}
	return out
}

// paneFrom are the lines of pane from its first line that starts with from, blank lines dropped.
func paneFrom(pane, from string) []string {
	var out []string
	for _, l := range strings.Split(pane, "\n") {
		if l = strings.TrimRight(l, " "); l != "" && (len(out) > 0 || strings.HasPrefix(l, from)) {
			out = append(out, l)
		}
	}
	return out
}

// TestClaudeCodeTUINarrow drives the real Claude Code in an 80-column terminal, as many people run it:
// the pane `/saver` answers — a card's why, fix and evidence, then the rule to write with its text in a
// gutter — is on the screen line for line as saverd draws it for the room Claude Code gives a hook's
// answer ($COLUMNS less 10), never torn apart by the UI's own wrapping; and the band, with the terminal
// made just too narrow for it, is the band saverd shortens by its own rules, never cut mid-word by the UI;
// with the daemon stopped, the status line says saverd is not answering rather than idle.
func TestClaudeCodeTUINarrow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel()
	e := newClaudeTUI(t)
	e.cols = narrowCols
	if err := os.WriteFile(filepath.Join(e.c.Dir, ".saverd.json"), []byte(`{"judgeBudget": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e.saverd("install", "claude-code")
	e.start()
	e.turn("check it builds", "Checked.", e.bash("npm test"), e.bash("npm test"), e.bash("npm test"), e.bash("npm test"))
	e.tm.WaitText(15*time.Second, "1 new waster")
	id := sessionOf(t, e.srv.Requests())

	// The pane, line for line as drawn for the room the UI gives it.
	room := narrowCols - 10
	for _, step := range []struct{ line, shows, from string }{
		{"/saver", "WASTERS (1)", "WASTERS (1)"},
		{"/saver fix 1", "· fixed", ""},
		{"/saver", "RULES TO WRITE (1)", "RULES TO WRITE (1)"},
	} {
		e.saver(saverLine{line: step.line, shows: step.shows})
		if step.from == "" {
			continue
		}
		want := paneFrom(viewText(t, e.sock, id, "pane", room), step.from)
		if len(want) < 4 {
			t.Fatalf("the daemon's pane from %q: %q", step.from, want)
		}
		shown := shownLines(e.tm.Screen())
		at := slices.Index(shown, want[0])
		if at < 0 || len(shown) < at+len(want) || !slices.Equal(shown[at:at+len(want)], want) {
			t.Errorf("%s in %d columns: the screen shows\n%s\nwant the pane as drawn in %d columns:\n%s",
				step.line, narrowCols, strings.Join(shown, "\n"), room, strings.Join(want, "\n"))
		}
	}

	// The band, in a terminal two columns wider than the whole band: Claude Code shows 4 fewer.
	full := viewText(t, e.sock, id, "band", 1000)
	cols := len([]rune(full)) + 2
	if err := e.tm.Resize(cols, claudeapi.TUIRows); err != nil {
		t.Fatal(err)
	}
	want := viewText(t, e.sock, id, "band", cols-4)
	if want == full {
		t.Fatalf("the band %q is drawn whole in %d columns: no shorter telling to see", full, cols-4)
	}
	s := e.tm.WaitFor("the band drawn for "+strings.TrimSpace(want), 20*time.Second, func(s string) bool { return statusLine(s) == want })
	if band := statusLine(s); strings.HasSuffix(band, "…") {
		t.Errorf("the band is cut by the UI: %q", band)
	}

	// A daemon that stops reading (kill -STOP, a wedged process) is said to be not answering, not idle;
	// running again, it draws the band again.
	if err := e.tm.Resize(claudeapi.TUICols, claudeapi.TUIRows); err != nil {
		t.Fatal(err)
	}
	resume := stopDaemonProcess(t, e.sock)
	e.tm.WaitFor("the status line saying saverd is not answering", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "saverd not answering (saverd doctor) ·") && !strings.Contains(s, "saverd idle")
	})
	resume()
	e.tm.WaitFor("the band back", 20*time.Second, func(s string) bool { return strings.HasPrefix(statusLine(s), "ContextSaver · ") })
}
