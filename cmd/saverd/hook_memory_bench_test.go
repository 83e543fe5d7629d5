//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/hookcmd"
)

// BenchmarkHookHugeOutputPeakRSS is what one 90 MB tool output costs the daemon at its peak: a fresh
// socket daemon takes a SessionStart, then one PostToolUse whose Bash stdout is 90 MB, through `saverd
// hook` as Claude Code runs it; peak-MB is the daemon's peak resident memory (VmHWM). The row it recorded
// must count the output's characters as the test counts them itself.
//
//	go test -run '^$' -bench HookHugeOutputPeakRSS -benchtime 1x ./cmd/saverd
func BenchmarkHookHugeOutputPeakRSS(b *testing.B) {
	dir := b.TempDir()
	saverd := filepath.Join(dir, "saverd")
	if out, err := exec.Command("go", "build", "-o", saverd, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	line := "2026-12-01 10:00:00 INFO a line of the build's log, as long as most\n"
	stdout := strings.Repeat(line, 90<<20/len(line))
	payload, _ := json.Marshal(map[string]any{"session_id": "huge", "transcript_path": "", "cwd": dir, "hook_event_name": "PostToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "cat build.log"}, "tool_use_id": "toolu_huge",
		"tool_response": map[string]any{"stdout": stdout, "stderr": "", "interrupted": false}, "duration_ms": 100})
	start, _ := json.Marshal(map[string]any{"session_id": "huge", "transcript_path": "", "cwd": dir, "hook_event_name": "SessionStart", "source": "startup"})
	for i := 0; i < b.N; i++ {
		sock := filepath.Join(dir, "run"+strconv.Itoa(i), "saverd.sock")
		env := append(os.Environ(), "SAVERD_SOCKET="+sock, "XDG_STATE_HOME="+filepath.Join(dir, "state"))
		daemon := exec.Command(saverd, "serve", "--listen", sock, "--log-level", "error", "--idle-exit", "0", "--store", filepath.Join(dir, "store"))
		daemon.Env = env
		if err := daemon.Start(); err != nil {
			b.Fatal(err)
		}
		stop := func() { _ = daemon.Process.Kill(); _ = daemon.Wait() }
		if c, err := hookcmd.DialRetry(sock, 5*time.Second); err != nil {
			stop()
			b.Fatal(err)
		} else {
			c.Close()
		}
		for _, p := range []struct {
			event string
			body  []byte
		}{{"SessionStart", start}, {"PostToolUse", payload}} {
			hook := exec.Command(saverd, "hook", p.event)
			hook.Env = env
			hook.Stdin = bytes.NewReader(p.body)
			if out, err := hook.CombinedOutput(); err != nil {
				stop()
				b.Fatalf("saverd hook %s: %v\n%s", p.event, err, out)
			}
		}
		peak := vmHWM(b, daemon.Process.Pid)
		var reply struct {
			Result struct {
				Rows []struct {
					ID    string `json:"id"`
					Chars int64  `json:"chars"`
				} `json:"rows"`
			} `json:"result"`
		}
		c, err := hookcmd.DialRetry(sock, 5*time.Second)
		if err == nil {
			c.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"debug.state","params":{"sessionId":"huge"}}` + "\n"))
			err = json.NewDecoder(c).Decode(&reply)
			c.Close()
		}
		stop()
		if err != nil {
			b.Fatalf("debug.state: %v", err)
		}
		st := reply.Result
		if n := len(st.Rows); n == 0 || st.Rows[n-1].ID != "toolu_huge" || st.Rows[n-1].Chars != int64(len(stdout)) {
			b.Fatalf("the row recorded %+v, want toolu_huge with %d chars", st.Rows, len(stdout))
		}
		b.ReportMetric(float64(peak)/1024, "peak-MB")
	}
}

// vmHWM is a process's peak resident memory in KB.
func vmHWM(b *testing.B, pid int) int64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	b.Fatal("no VmHWM")
	return 0
}
