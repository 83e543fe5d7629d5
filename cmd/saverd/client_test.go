package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// binPath is the saverd binary the end-to-end tests drive over pipes, built once in TestMain.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "saverd-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "saverd")
	// No test of this package reads or writes the machine's own state directory (the sessions and forks
	// logs an audit --judge or a daemon appends to): a test that needs one sets its own.
	if err := os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Nor its cache of the agents' logs (`saverd sessions` and the commands like it keep one). The go
	// commands the tests run (the builds below, a test re-run inside a network namespace, which builds
	// again) keep the machine's build cache, which lives under XDG_CACHE_HOME unless GOCACHE says where:
	// an empty one would compile every package again, with -race.
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
	}
	if err := os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-race", "-o", binPath, ".")
	if out, err := build.CombinedOutput(); err != nil {
		// -race needs cgo; fall back to a plain build rather than skipping the end-to-end tests.
		build = exec.Command("go", "build", "-o", binPath, ".")
		if out2, err2 := build.CombinedOutput(); err2 != nil {
			fmt.Fprintf(os.Stderr, "build saverd: %v\n%s\n%s", err2, out, out2)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// frame is one JSON-RPC message the daemon sent.
type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// forkFunc answers one model.fork: a result (nil = JSON null), or an error message; block to hang.
type forkFunc func(params json.RawMessage) (result any, errMsg string)

// client is a fake host: it spawns the daemon, speaks to it over pipes and answers its model.fork calls.
type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	header bool
	stderr *bytes.Buffer

	mu      sync.Mutex
	nextID  int
	waiting map[string]chan frame
	notes   []frame
	forks   []json.RawMessage
	fork    forkFunc
	raw     [][]byte // every frame exactly as read from stdout
	done    chan struct{}
	bad     []string // stdout content that was not a frame
}

func startDaemon(t *testing.T, header bool, fork forkFunc, args ...string) *client {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	// A -race binary sleeps a second at exit by default; the exit-time tests measure the daemon, not that.
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, cmd: cmd, stdin: stdin, header: header, stderr: &bytes.Buffer{}, waiting: map[string]chan frame{}, fork: fork, done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{w: c.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReaderSize(stdout, 1<<20))
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			_ = c.cmd.Process.Kill()
		}
		_ = c.cmd.Wait()
	})
	return c
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *client) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		body, err := c.readFrame(r)
		if err != nil {
			return
		}
		var f frame
		if jerr := json.Unmarshal(body, &f); jerr != nil || f.JSONRPC != "2.0" {
			c.mu.Lock()
			c.bad = append(c.bad, string(body))
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		c.raw = append(c.raw, body)
		c.mu.Unlock()
		switch {
		case f.Method != "" && len(f.ID) > 0:
			go c.answerFork(f)
		case f.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, f)
			c.mu.Unlock()
		default:
			c.mu.Lock()
			ch := c.waiting[string(f.ID)]
			delete(c.waiting, string(f.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- f
			}
		}
	}
}

func (c *client) readFrame(r *bufio.Reader) ([]byte, error) {
	if !c.header {
		for {
			line, err := r.ReadBytes('\n')
			line = bytes.TrimSpace(line)
			if len(line) > 0 {
				return line, nil
			}
			if err != nil {
				return nil, err
			}
		}
	}
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("frame without Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *client) answerFork(f frame) {
	c.mu.Lock()
	c.forks = append(c.forks, f.Params)
	fork := c.fork
	c.mu.Unlock()
	reply := map[string]any{"jsonrpc": "2.0", "id": f.ID}
	if fork == nil {
		reply["error"] = map[string]any{"code": -32601, "message": "no fork here"}
	} else if result, errMsg := fork(f.Params); errMsg != "" {
		reply["error"] = map[string]any{"code": -32000, "message": errMsg}
	} else {
		reply["result"] = result
	}
	c.write(reply)
}

func (c *client) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(b)
}

func (c *client) writeRaw(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.header {
		fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n", len(b))
		_, _ = c.stdin.Write(b)
		return
	}
	_, _ = c.stdin.Write(append(b, '\n'))
}

// call sends a request and waits for its reply.
func (c *client) call(method string, params any) frame {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan frame, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	c.write(map[string]any{"jsonrpc": "2.0", "id": c.nextIDValue(id), "method": method, "params": params})
	select {
	case f := <-ch:
		return f
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no reply to %s within 20s; stderr:\n%s", method, c.stderr.String())
	}
	return frame{}
}

func (c *client) nextIDValue(id string) any {
	n, _ := strconv.Atoi(id)
	return n
}

// ok calls and fails the test on an error reply, decoding the result into out (when not nil).
func (c *client) ok(method string, params any, out any) {
	c.t.Helper()
	f := c.call(method, params)
	if f.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, f.Error.Code, f.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(f.Result, out); err != nil {
			c.t.Fatalf("%s: decode result %s: %v", method, f.Result, err)
		}
	}
}

func (c *client) notify(method string, params any) {
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// waitFor polls until cond holds (the daemon answers forks in the background).
func (c *client) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("timed out waiting for %s; stderr:\n%s", what, c.stderr.String())
}

func (c *client) toasts() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, n := range c.notes {
		if n.Method == "ui.toast" {
			var p struct{ Text string }
			_ = json.Unmarshal(n.Params, &p)
			out = append(out, p.Text)
		}
	}
	return out
}

func (c *client) forkCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.forks)
}
