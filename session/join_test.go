//go:build unix

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/rs/zerolog"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// hangGuard fails a test whose hook never answers. It is no speed target: these tests assert what
// answered before what, and a hook that answers at all, however slowly, is judged by its answer.
const hangGuard = 30 * time.Second

// gatedRegistry is a registry whose read for one project waits until the test lets it go, as a store
// on a slow disk, or locked by a hung process, makes a session's start wait.
type gatedRegistry struct {
	testfake.Registry
	mu      sync.Mutex
	slowKey string
	entered chan struct{} // closed when the slow read began
	release chan struct{} // the slow read ends when this is closed
}

func (g *gatedRegistry) Get(key string) (any, error) {
	if key == g.slowKey {
		close(g.entered)
		<-g.release
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.Registry.Get(key)
}

func (g *gatedRegistry) Update(key string, merge func(any) (any, error)) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.Registry.Update(key, merge)
}

// hookAsync sends one hook on a goroutine of its own; the channel gets its error once it answered.
func hookAsync(srv *Table, session, cwd, event string, fields map[string]any) <-chan error {
	done := make(chan error, 1)
	go func() {
		p := map[string]any{"session_id": session, "cwd": cwd, "hook_event_name": event}
		for k, v := range fields {
			p[k] = v
		}
		payload, _ := json.Marshal(p)
		raw, _ := json.Marshal(HookParams{Harness: string(harness.ClaudeCode), Event: event, Payload: payload})
		_, err := srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw})
		done <- err
	}()
	return done
}

func answered(t *testing.T, what string, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("%s never answered", what)
	}
}

// TestSlowJoinHoldsNoOtherSession: while one session's start is held up (its registry read waits), the
// hooks of another session, new or held, are answered; the held-up session's own later hooks wait for
// its start and find one session, not two.
func TestSlowJoinHoldsNoOtherSession(t *testing.T) {
	slow, quick := t.TempDir(), t.TempDir()
	reg := &gatedRegistry{Registry: *testfake.NewRegistry(), slowKey: state.StoreKey(slow),
		entered: make(chan struct{}), release: make(chan struct{})}
	srv := New(Options{Store: reg})
	srv.SetHost(&fakeHost{})
	answered(t, "the held session's start", hookAsync(srv, "held", quick, bridge.SessionStart, map[string]any{"source": "startup"}))

	first := hookAsync(srv, "slow", slow, bridge.SessionStart, map[string]any{"source": "startup"})
	<-reg.entered
	second := hookAsync(srv, "slow", slow, bridge.UserPromptSubmit, map[string]any{"prompt": "go on"})
	answered(t, "a new session's start while another starts", hookAsync(srv, "new", quick, bridge.SessionStart, map[string]any{"source": "startup"}))
	answered(t, "a held session's tool call while another starts", hookAsync(srv, "held", quick, bridge.PostToolUse,
		map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": "a"}}))
	select {
	case <-first:
		t.Fatal("the slow session's start answered before its registry was read")
	case <-second:
		t.Fatal("the slow session's second hook answered before its start")
	default:
	}
	close(reg.release)
	answered(t, "the slow session's start", first)
	answered(t, "the slow session's second hook", second)
	srv.mu.Lock()
	n := len(srv.sessions)
	srv.mu.Unlock()
	if n != 3 {
		t.Fatalf("%d sessions, want 3 (one each)", n)
	}
}

// TestHostileTranscriptIsRefused: a transcript_path that names a FIFO, a sparse 10 GB file or a small
// .zst that inflates past its bound is refused with a warning naming it; its session starts without it
// and answers, and another session's hooks answer after it.
func TestHostileTranscriptIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","sessionId":"x","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","message":{"role":"user","content":"hi"}}` + "\n"
	sparse := filepath.Join(dir, "sparse.jsonl")
	if err := os.WriteFile(sparse, []byte(strings.Repeat(line, 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 10<<30); err != nil {
		t.Fatal(err)
	}
	// A zstd stream may be many frames: one of 8 MB of lines, compressed once and written 64 times, is
	// ~500 MB inflated from a few KB, made in a moment.
	bomb := filepath.Join(dir, "bomb.jsonl.zst")
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	frame := enc.EncodeAll([]byte(strings.Repeat(line, 8<<20/len(line))), nil)
	if err := os.WriteFile(bomb, bytes.Repeat(frame, 64), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path, why string }{
		{"a FIFO", fifo, "not a regular file"},
		{"a sparse 10 GB file", sparse, "file too large"},
		// Refused at its inflated bound, or at the read's deadline when the machine is slow (the race
		// detector's decoder): either way before the reader holds more than the bound.
		{"a zstd bomb", bomb, "bomb.jsonl.zst: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log testfake.LockedBuffer
			srv := New(Options{Store: testfake.NewRegistry(), Log: zerolog.New(&log)})
			srv.SetHost(&fakeHost{})
			cwd := t.TempDir()
			answered(t, "the hostile session's start", hookAsync(srv, "hostile", cwd, bridge.SessionStart,
				map[string]any{"source": "resume", "transcript_path": tc.path}))
			answered(t, "the hostile session's tool call", hookAsync(srv, "hostile", cwd, bridge.PostToolUse,
				map[string]any{"transcript_path": tc.path, "tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": "a"}}))
			answered(t, "the hostile session's turn end", hookAsync(srv, "hostile", cwd, bridge.Stop, map[string]any{"transcript_path": tc.path}))
			answered(t, "another session's start", hookAsync(srv, "other", cwd, bridge.SessionStart, map[string]any{"source": "startup"}))
			got := string(log.Bytes())
			if !strings.Contains(got, tc.path) || !strings.Contains(got, tc.why) || !strings.Contains(got, `"level":"warn"`) ||
				(tc.path == bomb && !strings.Contains(got, "inflates past") && !strings.Contains(got, "deadline passed")) {
				t.Fatalf("no warning names %s and says %q:\n%s", tc.path, tc.why, got)
			}
		})
	}
}
