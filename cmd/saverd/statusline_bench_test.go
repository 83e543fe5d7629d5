//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/harness/claude"
)

// BenchmarkStatusLine is what the status line costs at the refreshInterval install sets: Claude Code
// execs `saverd-hook statusline` every claude.StatusRefresh seconds (and on its own events), against
// a daemon holding a full session (2000 rows). It reports the exec's wall time (p50, p99), the CPU the
// status line command and the daemon each spend on one refresh (the command's rusage; the daemon's
// utime+stime from /proc over the whole run), and the CPU a minute of refreshes takes at the interval.
//
//	go test -run '^$' -bench StatusLine -benchtime 2000x ./cmd/saverd
func BenchmarkStatusLine(b *testing.B) {
	d := startBenchDaemon(b)
	env := append(d.env, "COLUMNS=140")

	// The status line input Claude Code 2.1.328 sends (its documented fields).
	payload, _ := json.Marshal(map[string]any{"session_id": "bench", "transcript_path": "", "cwd": "/bench",
		"model":     map[string]any{"id": "claude-opus-5-5", "display_name": "Opus 5.5"},
		"workspace": map[string]any{"current_dir": "/bench", "project_dir": "/bench"},
		"cost":      map[string]any{"total_cost_usd": 1.25, "total_duration_ms": 600000},
		"context_window": map[string]any{"used_percentage": 12, "context_window_size": 1000000,
			"total_input_tokens": 120000, "total_output_tokens": 9000}})
	var lat []time.Duration
	var clientCPU time.Duration
	daemonBefore := procCPU(b, d.pid)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(d.small, "statusline")
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(payload)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("saverd-hook statusline: %v", err)
		}
		lat = append(lat, time.Since(start))
		clientCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if !strings.Contains(out.String(), "ContextSaver") {
			b.Fatalf("saverd-hook statusline printed %q, not the band", out.String())
		}
	}
	b.StopTimer()
	daemonCPU := procCPU(b, d.pid) - daemonBefore
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	perRun := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(perRun(clientCPU), "command-cpu-µs/run")
	b.ReportMetric(perRun(daemonCPU), "daemon-cpu-µs/run")
	runsPerMinute := 60.0 / claude.StatusRefresh
	b.ReportMetric((perRun(clientCPU)+perRun(daemonCPU))*runsPerMinute/1000, "cpu-ms/min")
}

// procCPU is a process's user and system CPU so far, from /proc/PID/stat (clock ticks of 10 ms).
func procCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	// pid (comm) state ppid … utime is field 14, stime 15; read after the comm's closing parenthesis.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
