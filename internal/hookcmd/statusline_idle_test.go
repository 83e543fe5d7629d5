package hookcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIdleLine: what the status line input tells on its own, each field only when it is there.
func TestIdleLine(t *testing.T) {
	cases := []struct {
		name, payload, want string
	}{
		{"full", `{"session_id":"s","model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"cost":{"total_cost_usd":1.2345},
			"context_window":{"used_percentage":41.6,"context_window_size":1000000}}`, "saverd idle · Opus 5.5 · context 42% · $1.23"},
		{"id when no display name", `{"model":{"id":"claude-sonnet-5"}}`, "saverd idle · claude-sonnet-5"},
		{"context from the last call's prompt", `{"context_window":{"context_window_size":200000,
			"current_usage":{"input_tokens":1000,"cache_creation_input_tokens":9000,"cache_read_input_tokens":40000,"output_tokens":500}}}`,
			"saverd idle · context 25%"},
		{"no usage yet", `{"model":{"display_name":"Opus"},"context_window":{"used_percentage":null,"context_window_size":200000}}`, "saverd idle · Opus"},
		{"zero cost is a cost", `{"cost":{"total_cost_usd":0}}`, "saverd idle · $0.00"},
		{"negative cost is none", `{"cost":{"total_cost_usd":-1}}`, "saverd idle"},
		{"a percentage past 100 is none", `{"context_window":{"used_percentage":250}}`, "saverd idle"},
		{"a name over several lines is one", `{"model":{"display_name":"Opus\n5.5"}}`, "saverd idle · Opus 5.5"},
		{"fields of the wrong type", `{"model":"opus","cost":{"total_cost_usd":"1"}}`, "saverd idle"},
		{"not JSON", `{"model":`, "saverd idle"},
		{"empty", ``, "saverd idle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := IdleLine([]byte(c.payload)); got != c.want {
				t.Fatalf("IdleLine = %q, want %q", got, c.want)
			}
		})
	}
}

// TestStatuslineWithoutDaemon: no daemon at the socket prints the idle line (never an empty one) and
// starts none: the socket is still absent afterwards.
func TestStatuslineWithoutDaemon(t *testing.T) {
	sock := filepath.Join(privateDir(t), "saverd.sock")
	t.Setenv("SAVERD_SOCKET", sock)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, payload := range []string{`{"session_id":"s","model":{"display_name":"Opus 5.5"},"cost":{"total_cost_usd":0.5}}`, `not json`} {
		var out bytes.Buffer
		if code := Statusline(nil, strings.NewReader(payload), &out); code != 0 {
			t.Fatalf("exit %d", code)
		}
		want := IdleLine([]byte(payload)) + "\n"
		if out.String() != want || !strings.HasPrefix(out.String(), "saverd idle") {
			t.Fatalf("printed %q, want %q", out.String(), want)
		}
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("a daemon was started at %s (%v)", sock, err)
	}
}

// TestStatuslineDaemonWithoutSession: a daemon that draws nothing for the session (it does not hold it)
// leaves the idle line too; one that draws the band has it printed as it came.
func TestStatuslineDaemonWithoutSession(t *testing.T) {
	sock := filepath.Join(privateDir(t), "s.sock")
	t.Setenv("SAVERD_SOCKET", sock)
	for _, c := range []struct{ reply, want string }{
		{`{"jsonrpc":"2.0","id":1,"result":{"text":""}}`, "saverd idle · Opus\n"},
		{`{"jsonrpc":"2.0","id":1,"result":{"text":"ContextSaver band"}}`, "ContextSaver band\n"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`, "saverd idle · Opus\n"},
	} {
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			conn, err := l.Accept()
			if err != nil {
				return
			}
			defer conn.Close()
			// The request comes with a Content-Length header, and the answer goes back so, as the daemon's.
			if _, err := readAnswer(bufio.NewReader(conn)); err != nil {
				return
			}
			_, _ = fmt.Fprintf(conn, "Content-Length: %d\r\n\r\n%s", len(c.reply), c.reply)
		}()
		var out bytes.Buffer
		Statusline(nil, strings.NewReader(`{"session_id":"s","model":{"display_name":"Opus"}}`), &out)
		<-done
		l.Close()
		if out.String() != c.want {
			t.Errorf("daemon answering %s: printed %q, want %q", c.reply, out.String(), c.want)
		}
	}
}

// BenchmarkStatuslineIdle is the status line's own cost when no daemon runs (Claude Code may run it
// every second): the dial that fails and the idle line.
func BenchmarkStatuslineIdle(b *testing.B) {
	b.Setenv("SAVERD_SOCKET", filepath.Join(privateDir(b), "none.sock"))
	payload := `{"session_id":"s","model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"cost":{"total_cost_usd":1.5},"context_window":{"used_percentage":12,"context_window_size":1000000}}`
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		Statusline(nil, strings.NewReader(payload), &out)
	}
}

// privateDir is a directory the socket checks accept, the user's own and 0700 (a t.TempDir is 0755).
func privateDir(tb testing.TB) string {
	dir := filepath.Join(tb.TempDir(), "run")
	if err := os.Mkdir(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestStatuslineFitsClaudeCodesRoom: the band is asked for as wide as Claude Code shows its status line
// — the terminal's $COLUMNS less the 4 it keeps — so the band shortens itself by its own rules instead
// of being cut mid-word with "…"; with no $COLUMNS the daemon picks the width.
func TestStatuslineFitsClaudeCodesRoom(t *testing.T) {
	for _, c := range []struct {
		columns string
		width   int64 // 0: none asked
	}{{"90", 86}, {"200", 196}, {"", 0}, {"3", 0}} {
		t.Run("COLUMNS="+c.columns, func(t *testing.T) {
			t.Setenv("COLUMNS", c.columns)
			sock := filepath.Join(privateDir(t), "s.sock")
			t.Setenv("SAVERD_SOCKET", sock)
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			asked := make(chan []byte, 1)
			go func() {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
				req, err := readAnswer(bufio.NewReader(conn))
				if err != nil {
					return
				}
				asked <- req
				reply := `{"jsonrpc":"2.0","id":1,"result":{"text":"ContextSaver band"}}`
				_, _ = fmt.Fprintf(conn, "Content-Length: %d\r\n\r\n%s", len(reply), reply)
			}()
			var out bytes.Buffer
			Statusline(nil, strings.NewReader(`{"session_id":"s"}`), &out)
			var msg struct {
				Params struct {
					Width int64 `json:"width"`
				} `json:"params"`
			}
			req := <-asked
			if err := json.Unmarshal(req, &msg); err != nil {
				t.Fatalf("request %q: %v", req, err)
			}
			if msg.Params.Width != c.width || out.String() != "ContextSaver band\n" {
				t.Errorf("asked %q (width %d, want %d), printed %q", req, msg.Params.Width, c.width, out.String())
			}
		})
	}
}

// TestStatuslineHungDaemon: a daemon that takes the connection but never reads the request (stopped,
// wedged) is said to be not answering, not idle, with what the input tells on its own.
func TestStatuslineHungDaemon(t *testing.T) {
	sock := filepath.Join(privateDir(t), "s.sock")
	t.Setenv("SAVERD_SOCKET", sock)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	held := make(chan net.Conn, 1)
	go func() {
		if conn, err := l.Accept(); err == nil {
			held <- conn // accepted, never read
		}
	}()
	var out bytes.Buffer
	Statusline(nil, strings.NewReader(`{"session_id":"s","model":{"display_name":"Opus 5.5"}}`), &out)
	if want := "saverd not answering (saverd doctor) · Opus 5.5\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	select {
	case conn := <-held:
		conn.Close()
	default:
	}
}
