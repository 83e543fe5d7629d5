package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/saverd/saverd/internal/hookcmd"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkHookRoundTrip is what Claude Code pays per tool call with saverd installed: one exec of the
// static `saverd-hook hook PostToolUse` (hook-*) against a daemon holding a full session (2000 rows),
// beside the floor of exec-ing a trivial static binary in the same run, the same hook run by the whole
// `saverd` binary (whole-*, what a hook costs without the small binary) and, where Node is
// installed, the one-line Node hook plugin authors usually write.
//
//	go test -run '^$' -bench HookRoundTrip -benchtime 2000x ./cmd/saverd
func BenchmarkHookRoundTrip(b *testing.B) {
	floor := filepath.Join(b.TempDir(), "floor")
	if err := os.WriteFile(floor+".go", []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	goBuild(b, "-o", floor, floor+".go")
	d := startBenchDaemon(b)
	dir, saverd, small, env := d.dir, d.saverd, d.small, d.env

	payload, _ := json.Marshal(map[string]any{"session_id": "bench", "transcript_path": "", "cwd": dir, "hook_event_name": "PostToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./..."}, "tool_use_id": "toolu_bench",
		"tool_response": map[string]any{"stdout": strings.Repeat("ok  \tpkg\t0.1s\n", 40)}, "duration_ms": 900})
	runs := map[string][]string{"floor": {floor}, "hook": {small, "hook", "PostToolUse"}, "whole": {saverd, "hook", "PostToolUse"}}
	if node, err := exec.LookPath("node"); err == nil {
		runs["node"] = []string{node, "-e", "process.stdin.on('data',()=>{}).on('end',()=>process.exit(0))"}
	}
	lat := map[string][]time.Duration{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"floor", "hook", "whole", "node"} {
			argv, ok := runs[name]
			if !ok || (name == "node" && i%20 != 0) { // Node is 30× slower: sampled
				continue
			}
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = env
			cmd.Stdin = bytes.NewReader(payload)
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			lat[name] = append(lat[name], time.Since(start))
		}
	}
	b.StopTimer()
	for name, l := range lat {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		b.ReportMetric(float64(l[len(l)/2].Microseconds()), name+"-p50-µs")
		b.ReportMetric(float64(l[len(l)*99/100].Microseconds()), name+"-p99-µs")
	}
}

// benchDaemon is a socket daemon of a benchmark's own, built static as go install builds it, holding a
// full session "bench" (2000 rows), with the small hook binary beside it.
type benchDaemon struct {
	dir, saverd, small string
	env                []string // the environment that reaches its socket
	pid                int
}

func startBenchDaemon(b *testing.B) benchDaemon {
	d := benchDaemon{dir: b.TempDir()}
	d.saverd, d.small = filepath.Join(d.dir, "saverd"), filepath.Join(d.dir, "saverd-hook")
	goBuild(b, "-o", d.saverd, ".")
	goBuild(b, "-o", d.small, "../saverd-hook")
	sock := filepath.Join(d.dir, "run", "saverd.sock")
	d.env = append(os.Environ(), "SAVERD_SOCKET="+sock, "XDG_STATE_HOME="+filepath.Join(d.dir, "state"))
	daemon := exec.Command(d.saverd, "serve", "--listen", sock, "--log-level", "error", "--idle-exit", "0")
	daemon.Env = d.env
	if err := daemon.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = daemon.Process.Kill(); _ = daemon.Wait() })
	d.pid = daemon.Process.Pid
	conn, err := hookcmd.DialRetry(sock, 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	fill(b, conn, 2000)
	conn.Close()
	return d
}

// goBuild runs go build with args, static (CGO_ENABLED=0) as the hooks are installed.
func goBuild(b *testing.B, args ...string) {
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %v: %v\n%s", args, err, out)
	}
}

// fill gives the daemon's session "bench" n rows through hook requests on one connection.
func fill(b *testing.B, conn net.Conn, n int) {
	r := bufio.NewReader(conn)
	for i := 0; i < n; i++ {
		payload, _ := json.Marshal(map[string]any{"session_id": "bench", "transcript_path": "", "cwd": "/bench", "hook_event_name": "PostToolUse",
			"tool_name": "Read", "tool_input": map[string]any{"file_path": "/bench/f" + strconv.Itoa(i%300) + ".go"}, "tool_use_id": "toolu_" + strconv.Itoa(i),
			"tool_response": map[string]any{"type": "text", "file": map[string]any{"content": strings.Repeat("line\n", 50)}}, "duration_ms": 3})
		conn.Write(hookcmd.Frame("claude-code", "PostToolUse", payload))
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
	}
}
