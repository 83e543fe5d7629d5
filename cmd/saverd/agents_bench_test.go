//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentcorpus"
	"github.com/saverd/saverd/internal/clientrun"
)

var (
	agentsCorpus   = flag.String("agents-corpus", "", "BenchmarkSessionsVsCcusage: build (or reuse) the five agents' corpus in this directory and keep it")
	agentsCorpusMB = flag.Int("agents-corpus-mb", 1024, "BenchmarkSessionsVsCcusage: corpus size in MB")
)

// ccusageVersion is the ccusage the comparison runs (from npm: a Node launcher and its native binary).
const ccusageVersion = "20.0.24"

// BenchmarkSessionsVsCcusage reads a generated corpus of the five agents' logs (Claude Code, Codex,
// Gemini CLI, OpenCode, Qwen Code: 1 GB by default, in each client's own layout and place under one HOME)
// with `saverd sessions --format json` and with `ccusage daily --json --offline`, which reads all five
// too, turn about, the order turned each round. saverd runs twice a round: with --no-cache (every log
// read, as a first run) and as a person runs it again (the logs unchanged since are taken from its
// cache, which the first such run writes). It reports each one's user+sys CPU and peak RSS (the process
// and what it waited for: ccusage's launcher and its binary) as medians of the rounds; the goal is saverd
// at most a third of ccusage's CPU with peak RSS under 200 MB. saverd's totals, read and cached alike,
// are checked against what the corpus writer counted.
//
//	go test -run '^$' -bench SessionsVsCcusage -benchtime 5x ./cmd/saverd
func BenchmarkSessionsVsCcusage(b *testing.B) {
	saverd := plainBinary(b)
	ccusage := clientrun.Install(b, "ccusage-"+ccusageVersion, "ccusage@"+ccusageVersion, func(dir string) string {
		return clientrun.Executable(filepath.Join(dir, "node_modules", ".bin", "ccusage"))
	})
	home, totals := agentsHome(b)
	env := clientrun.BaseEnv(home)
	var coldRuns, cachedRuns, ccusageRuns []procRun
	b.ResetTimer()
	for i := range b.N {
		turn := []func(){
			func() {
				coldRuns = append(coldRuns, timed(b, env, saverd, "sessions", "--no-cache", "--format", "json"))
			},
			func() { cachedRuns = append(cachedRuns, timed(b, env, saverd, "sessions", "--format", "json")) },
			func() { ccusageRuns = append(ccusageRuns, timed(b, env, ccusage, "daily", "--json", "--offline")) },
		}
		for j := range turn {
			turn[(i+j)%len(turn)]()
		}
	}
	b.StopTimer()
	checkCorpusTotals(b, coldRuns[0].out, totals)
	checkCorpusTotals(b, cachedRuns[len(cachedRuns)-1].out, totals)
	if !bytes.Equal(coldRuns[0].out, cachedRuns[len(cachedRuns)-1].out) {
		b.Errorf("sessions with its cache wrote another output than with --no-cache")
	}
	s, w, c := medianRun(coldRuns), medianRun(cachedRuns), medianRun(ccusageRuns)
	b.ReportMetric(s.cpu.Seconds(), "saverd-cpu-s")
	b.ReportMetric(w.cpu.Seconds(), "saverd-cached-cpu-s")
	b.ReportMetric(c.cpu.Seconds(), "ccusage-cpu-s")
	b.ReportMetric(c.cpu.Seconds()/s.cpu.Seconds(), "ccusage/saverd-cpu")
	b.ReportMetric(c.cpu.Seconds()/w.cpu.Seconds(), "ccusage/saverd-cached-cpu")
	b.ReportMetric(s.wall.Seconds(), "saverd-wall-s")
	b.ReportMetric(c.wall.Seconds(), "ccusage-wall-s")
	b.ReportMetric(float64(max(s.rss, w.rss))/1024, "saverd-peakRSS-MB")
	b.ReportMetric(float64(c.rss)/1024, "ccusage-peakRSS-MB")
	for _, r := range [...]struct {
		name string
		runs []procRun
	}{{"saverd --no-cache", coldRuns}, {"saverd cached", cachedRuns}, {"ccusage", ccusageRuns}} {
		for _, x := range r.runs {
			b.Logf("%-17s %6.2fs wall %6.2fs cpu %4d MB", r.name, x.wall.Seconds(), x.cpu.Seconds(), x.rss/1024)
		}
	}
	b.Logf("ccusage's own totals: %s", ccusageTotals(ccusageRuns[0].out))
}

// agentsHome is the corpus's HOME, written once (and kept with -agents-corpus), with what it holds.
func agentsHome(b *testing.B) (string, map[string]agentcorpus.Totals) {
	dir := *agentsCorpus
	if dir == "" {
		dir = b.TempDir()
	}
	home := filepath.Join(dir, "home")
	marker := filepath.Join(dir, "totals.json")
	var totals map[string]agentcorpus.Totals
	if data, err := os.ReadFile(marker); err == nil && json.Unmarshal(data, &totals) == nil {
		return home, totals
	}
	if err := os.RemoveAll(home); err != nil {
		b.Fatal(err)
	}
	totals, err := agentcorpus.Write(home, int64(*agentsCorpusMB)<<20)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := json.Marshal(totals)
	if err := os.WriteFile(marker, data, 0o644); err != nil {
		b.Fatal(err)
	}
	var size int64
	for h, t := range totals {
		size += t.Bytes
		b.Logf("corpus %-11s %5d sessions %8d calls %6d MB", h, t.Sessions, t.Calls, t.Bytes>>20)
	}
	b.Logf("corpus: %d MB in %s", size>>20, home)
	return home, totals
}

// procRun is one process's run: its output, wall time, CPU (user+sys, its waited children included) and peak RSS in KB.
type procRun struct {
	out  []byte
	wall time.Duration
	cpu  time.Duration
	rss  int64
}

func timed(b *testing.B, env []string, bin string, args ...string) procRun {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %q: %v\n%s", filepath.Base(bin), args, err, stderr.Bytes())
	}
	r := procRun{out: stdout.Bytes(), wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.rss = ru.Maxrss
	}
	return r
}

// medianRun is the median of the runs by CPU, wall and RSS, each on its own.
func medianRun(runs []procRun) procRun {
	med := func(get func(procRun) int64) int64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return procRun{cpu: time.Duration(med(func(r procRun) int64 { return int64(r.cpu) })), wall: time.Duration(med(func(r procRun) int64 { return int64(r.wall) })),
		rss: med(func(r procRun) int64 { return r.rss })}
}

// checkCorpusTotals holds saverd's totals to what the corpus writer counted, harness by harness.
func checkCorpusTotals(b *testing.B, out []byte, totals map[string]agentcorpus.Totals) {
	var got struct {
		Sessions []agentlog.Record `json:"sessions"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		b.Fatalf("saverd sessions: %v", err)
	}
	sum := map[string]agentcorpus.Totals{}
	for _, r := range got.Sessions {
		t := sum[r.Harness]
		t.Sessions++
		t.Calls += r.Calls
		t.Tokens.Add(r.Tokens)
		sum[r.Harness] = t
	}
	for h, want := range totals {
		if g := sum[h]; g.Sessions != want.Sessions || g.Calls != want.Calls || g.Tokens != want.Tokens {
			b.Errorf("%s: saverd read %d sessions, %d calls, %+v; the corpus holds %d, %d, %+v", h, g.Sessions, g.Calls, g.Tokens, want.Sessions, want.Calls, want.Tokens)
		}
	}
}

// ccusageTotals is ccusage's daily report's totals line, for the log.
func ccusageTotals(out []byte) string {
	var got struct {
		Totals json.RawMessage `json:"totals"`
	}
	if json.Unmarshal(out, &got) != nil {
		return "(unreadable)"
	}
	return string(got.Totals)
}
