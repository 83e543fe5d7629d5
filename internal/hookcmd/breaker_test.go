package hookcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// daemonLike listens at a socket of its own and serves each connection with serve (nil: it never
// accepts one, as a stopped daemon whose connections the kernel queues).
func daemonLike(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { // usersock.Dial takes a socket only in a directory of the user's own
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "d.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if serve != nil {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					serve(c)
				}()
			}
		}()
	}
	return sock
}

// readRequest reads one Content-Length framed request, as the daemon does (a request cut short is read
// as far as it goes).
func readRequest(c net.Conn) {
	_, _ = readAnswer(bufio.NewReader(c))
}

func answer(c net.Conn) {
	body := `{"jsonrpc":"2.0","id":1,"result":{"output":{"ok":true}}}`
	c.Write([]byte("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
}

// TestCallWithinTellsHungFromBusy: a daemon that does not read the request (stopped) is given up after
// Taken, whatever the request's size; one that reads it and takes its time to answer is waited for until
// Answer; one that reads it and never answers is given up at Answer.
func TestCallWithinTellsHungFromBusy(t *testing.T) {
	if !seesTaken {
		t.Skip("this platform cannot tell a daemon that read a request from one that did not")
	}
	w := Waits{Taken: 300 * time.Millisecond, Answer: 3 * time.Second}
	small := []byte(`{"jsonrpc":"2.0","id":1,"method":"hook","params":{}}` + "\n")
	large := append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"hook","params":{"x":"`), bytes.Repeat([]byte("x"), 8<<20)...), `"}}`+"\n"...)
	cases := []struct {
		name    string
		serve   func(net.Conn)
		frame   []byte
		want    error // nil: answered
		atLeast time.Duration
		within  time.Duration
	}{
		{"stopped, small request", nil, small, errHung, w.Taken, w.Taken + time.Second},
		{"stopped, 8 MB request", nil, large, errHung, w.Taken, w.Taken + time.Second},
		{"busy past Taken", func(c net.Conn) { readRequest(c); time.Sleep(time.Second); answer(c) }, small, nil, time.Second, w.Answer},
		{"busy, 8 MB request", func(c net.Conn) { readRequest(c); time.Sleep(time.Second); answer(c) }, large, nil, time.Second, w.Answer},
		{"reads, never answers", func(c net.Conn) { readRequest(c); time.Sleep(2 * w.Answer) }, small, errSilent, w.Answer, w.Answer + time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sock := daemonLike(t, c.serve)
			start := time.Now()
			out, err := CallWithin(sock, c.frame, w, "")
			took := time.Since(start)
			switch {
			case c.want == nil && (err != nil || string(out) != `{"ok":true}`):
				t.Fatalf("got %q, %v; want the answer", out, err)
			case c.want != nil && !errors.Is(err, c.want):
				t.Fatalf("got %q, %v; want %v", out, err, c.want)
			case c.want != nil && !errors.Is(err, os.ErrDeadlineExceeded):
				t.Fatalf("%v does not say it timed out (the /saver reply reads it so)", err)
			}
			if took < c.atLeast || took > c.within {
				t.Fatalf("took %s, want between %s and %s", took, c.atLeast, c.within)
			}
		})
	}
}

// TestBreaker: a hook that finds the daemon hung leaves the mark; the next hooks give the daemon
// BreakerWait; the first one it answers takes the mark away, and a mark past BreakerOpen holds nothing.
func TestBreaker(t *testing.T) {
	if !seesTaken {
		t.Skip("this platform cannot tell a daemon that read a request from one that did not")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // hook.log
	frame := []byte(`{"jsonrpc":"2.0","id":1,"method":"hook","params":{}}` + "\n")
	hung := daemonLike(t, nil)
	w := Waits{Taken: StallWait, Answer: EventWait}
	if _, err := ask(hung, frame, w, "", true); !errors.Is(err, errHung) {
		t.Fatalf("first hook: %v, want errHung", err)
	}
	if !hungLately(hung, time.Now()) {
		t.Fatal("a hook found the daemon hung and left no mark")
	}
	start := time.Now()
	if _, err := ask(hung, frame, w, "", true); !errors.Is(err, errHung) {
		t.Fatalf("hook while the breaker is open: %v, want errHung", err)
	}
	if took := time.Since(start); took > BreakerWait+500*time.Millisecond {
		t.Fatalf("a hook while the breaker is open took %s, want about BreakerWait (%s)", took, BreakerWait)
	}
	// The daemon at the same socket answers again (a SIGCONT): the first answer closes the breaker.
	live := daemonLike(t, func(c net.Conn) { readRequest(c); answer(c) })
	tripBreaker(live, time.Now())
	if _, err := ask(live, frame, w, "", true); err != nil {
		t.Fatalf("a live daemon behind an open breaker: %v", err)
	}
	if hungLately(live, time.Now()) {
		t.Fatal("the daemon answered and the mark stayed")
	}
	// A mark from long ago, or from a clock far ahead, holds nothing.
	tripBreaker(live, time.Now())
	for _, at := range []time.Time{time.Now().Add(-2 * BreakerOpen), time.Now().Add(2 * BreakerOpen)} {
		if err := os.Chtimes(BreakerFile(live), at, at); err != nil {
			t.Fatal(err)
		}
		if hungLately(live, time.Now()) {
			t.Fatalf("a mark dated %s holds the breaker open", at)
		}
	}
}

// TestWaitsFor: only a prompt that runs the judge waits long for its answer; every hook gives the daemon
// StallWait to read it.
func TestWaitsFor(t *testing.T) {
	cases := []struct {
		event, payload string
		answer         time.Duration
	}{
		{"UserPromptSubmit", `{"prompt":"/saver check"}`, CheckWait},
		{"UserPromptSubmit", `{"prompt":"  $saver check now"}`, CheckWait},
		{"UserPromptSubmit", `{"prompt":"/saver:saver check"}`, CheckWait},
		{"UserPromptSubmit", `{"prompt":"/saver fix 1"}`, EventWait},
		{"UserPromptSubmit", `{"prompt":"/saver"}`, EventWait},
		{"UserPromptSubmit", `{"prompt":"check the build"}`, EventWait},
		{"UserPromptSubmit", `{"prompt":"/saver checkout"}`, EventWait},
		{"PostToolUse", `{"prompt":"/saver check"}`, EventWait},
		{"Stop", `{}`, EventWait},
		{"SessionEnd", `{}`, SessionEndWait},
	}
	for _, c := range cases {
		if w := WaitsFor(c.event, []byte(c.payload)); w.Answer != c.answer || w.Taken != StallWait {
			t.Errorf("WaitsFor(%s, %s) = %+v, want answer %s, taken %s", c.event, c.payload, w, c.answer, StallWait)
		}
	}
}

// TestAskSaysWhenItStopsWaiting: a hook's frame ends its params with readBy, when the hook stops waiting
// for the daemon to read it (StallWait from its start where the hook can see a read, else the answer's
// wait), the payload as it was; the status line's frame says nothing of it.
func TestAskSaysWhenItStopsWaiting(t *testing.T) {
	got := make(chan []byte, 1)
	sock := daemonLike(t, func(c net.Conn) {
		body, _ := readAnswer(bufio.NewReader(c))
		got <- body
		answer(c)
	})
	payload := []byte(`{"session_id":"s","prompt":"go on"}`)
	for _, stamp := range []bool{true, false} {
		start := time.Now()
		if _, err := ask(sock, Frame("claude-code", "UserPromptSubmit", payload), WaitsFor("UserPromptSubmit", payload), "", stamp); err != nil {
			t.Fatal(err)
		}
		var msg struct {
			Params struct {
				ReadBy  *int64          `json:"readBy"`
				Payload json.RawMessage `json:"payload"`
			} `json:"params"`
		}
		body := <-got
		if err := json.Unmarshal(body, &msg); err != nil || string(msg.Params.Payload) != string(payload) {
			t.Fatalf("frame %s: %v", body, err)
		}
		switch wait := StallWait; {
		case !stamp && msg.Params.ReadBy != nil:
			t.Fatalf("unstamped frame says readBy: %s", body)
		case stamp && !seesTaken:
			wait = EventWait
			fallthrough
		case stamp:
			if msg.Params.ReadBy == nil || *msg.Params.ReadBy < start.Add(wait).UnixMilli() || *msg.Params.ReadBy > time.Now().Add(wait).UnixMilli() {
				t.Fatalf("readBy in %s, want %s after the hook began (%d)", body, wait, start.Add(wait).UnixMilli())
			}
		}
	}
}

// TestReadByCountsFromTheLastByte: a request of megabytes that a busy daemon reads slowly, whole only
// after StallWait, is not late: readBy runs from when its last part was written, so the daemon that read
// it all in time finds it before readBy.
func TestReadByCountsFromTheLastByte(t *testing.T) {
	if !seesTaken {
		t.Skip("this platform cannot tell a daemon that read a request from one that did not")
	}
	type read struct {
		body []byte
		at   time.Time
	}
	got := make(chan read, 1)
	sock := daemonLike(t, func(c net.Conn) {
		slow := bufio.NewReaderSize(readerFunc(func(p []byte) (int, error) {
			time.Sleep(40 * time.Millisecond)
			return c.Read(p[:min(len(p), 128<<10)])
		}), 128<<10)
		body, _ := readAnswer(slow)
		got <- read{body, time.Now()}
		answer(c)
	})
	payload, _ := json.Marshal(map[string]string{"session_id": "s", "stdout": strings.Repeat("x", 6<<20)})
	start := time.Now()
	if _, err := ask(sock, Frame("claude-code", "PostToolUse", payload), WaitsFor("PostToolUse", payload), "", true); err != nil {
		t.Fatal(err)
	}
	r := <-got
	var msg struct {
		Params struct {
			ReadBy int64 `json:"readBy"`
		} `json:"params"`
	}
	if err := json.Unmarshal(r.body, &msg); err != nil {
		t.Fatal(err)
	}
	if took := r.at.Sub(start); took < StallWait {
		t.Fatalf("the daemon read the request in %s: the test wants it slower than StallWait", took)
	}
	if r.at.UnixMilli() > msg.Params.ReadBy {
		t.Fatalf("read whole %s after the hook began, readBy %d ms after: a request the hook still waited for reads as late",
			r.at.Sub(start), msg.Params.ReadBy-start.UnixMilli())
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestAfterLaunch: a hook that started the daemon first stays inside the client's timeout for it
// (10 s for the tool and turn hooks, 130 s for UserPromptSubmit), whatever the launch took up to
// StartWait, and still gives the fresh daemon StallWait to read its request.
func TestAfterLaunch(t *testing.T) {
	for _, c := range []struct {
		name    string
		w       Waits
		spent   time.Duration
		timeout time.Duration
	}{
		{"a tool hook, the launch at its longest", Waits{StallWait, EventWait}, StartWait, 10 * time.Second},
		{"a tool hook, a quick launch", Waits{StallWait, EventWait}, 50 * time.Millisecond, 10 * time.Second},
		{"a check", Waits{StallWait, CheckWait}, StartWait, 130 * time.Second},
		{"session end, a launch longer than its wait", Waits{StallWait, SessionEndWait}, StartWait, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := afterLaunch(c.w, c.spent)
			if got.Taken != c.w.Taken {
				t.Errorf("Taken %s, want %s", got.Taken, c.w.Taken)
			}
			if got.Answer < got.Taken {
				t.Errorf("Answer %s below Taken %s", got.Answer, got.Taken)
			}
			if c.timeout > 0 && c.spent+got.Answer > c.timeout {
				t.Errorf("launch %s + answer %s = %s: past the client's %s", c.spent, got.Answer, c.spent+got.Answer, c.timeout)
			}
		})
	}
}
