package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/fullsession"
)

// replayFile, when set, is where BenchmarkDaemonFloors writes (and leaves) the replay it generates, for
// the comparisons run by hand (bench/node).
var replayFile = flag.String("replay-file", "", "BenchmarkDaemonFloors: write the generated replay here and keep it")

// floorCalls is how many tool.calls BenchmarkDaemonFloors' replay holds past the fill: more spread the
// daemon's start and its heap's first growth (page faults) over more calls.
var floorCalls = flag.Int("floor-calls", 20_000, "BenchmarkDaemonFloors: tool.calls past the full session's fill")

// BenchmarkDaemonFloors measures, in one run and on one generated replay of a full session (RowCap
// rows and more, LoopCap loops):
//
//   - serve (`saverd < FILE`) against `saverd replay FILE`: CPU and wall per tool.call, and their ratio;
//     and the same per call of the calls past the full session's fill alone (full-*: each program is
//     also run on the fill, whose CPU is taken from the whole run's), which leaves the start and the
//     ledger's first rows out of a figure given "at a full ledger";
//   - serve's CPU per tool.call against the floor program (testdata/floor/min: the same fields decoded,
//     a row appended, an empty reply) on the same file;
//   - the tool.call round trip through pipes, one request at a time, p50 and p99, against the echo floor
//     (testdata/floor/echo) over the same pipes, and the floor program's own p50 (at a full ledger too):
//     and the echo's when it spends busyWork on each call (busy-p50/echo): on a VM an answer that takes
//     any work at all can cost the waiting host a wake-up the echo's near-instant one does not.
//
// The runs alternate, so drift in the machine's speed falls on all of them alike. It is fixed at one
// measurement whatever -benchtime says, and every process it starts has ended when it returns.
//
//	go test -run '^$' -bench DaemonFloors -benchtime 1x ./cmd/saverd [-args -floor-calls 100000]
func BenchmarkDaemonFloors(b *testing.B) {
	dir := b.TempDir()
	echo, floor := buildFloor(b, dir, "echo"), buildFloor(b, dir, "min")
	saverd := plainBinary(b)
	extra := *floorCalls
	file := filepath.Join(dir, "session.ndjson")
	if *replayFile != "" {
		file = *replayFile
	}
	calls := writeReplay(b, file, extra)
	// The fill alone, the same requests up to a full ledger: what a run costs before its calls are at a
	// full ledger (the start, the ledger's first RowCap rows), taken from the whole run's cost.
	fill := filepath.Join(dir, "fill.ndjson")
	writeReplay(b, fill, 0)
	for range min(b.N, 1) {
		store := b.TempDir() // empty: replay holds no registry either
		runs := func(name, file string) []string {
			switch name {
			case "serve":
				return []string{saverd, "--store", store, "--log-level", "error"}
			case "replay":
				return []string{saverd, "replay", file}
			}
			return []string{floor}
		}
		cpu, wall, fillCPU := map[string][]time.Duration{}, map[string][]time.Duration{}, map[string][]time.Duration{}
		for range 5 {
			for _, name := range []string{"serve", "replay", "floor"} {
				c, w := runOnFile(b, runs(name, file), file)
				cpu[name], wall[name] = append(cpu[name], c), append(wall[name], w)
				c, _ = runOnFile(b, runs(name, fill), fill)
				fillCPU[name] = append(fillCPU[name], c)
			}
		}
		per := func(d []time.Duration) float64 { return float64(median(d).Nanoseconds()) / 1e3 / float64(calls) }
		// past is the CPU per call of the calls past the fill: each whole run less the median fill.
		past := func(name string) float64 {
			f := median(fillCPU[name])
			d := make([]time.Duration, len(cpu[name]))
			for i, c := range cpu[name] {
				d[i] = c - f
			}
			return float64(median(d).Nanoseconds()) / 1e3 / float64(extra)
		}
		b.ReportMetric(per(cpu["serve"]), "serve-cpu-µs/call")
		b.ReportMetric(past("serve"), "full-serve-cpu-µs/call")
		b.ReportMetric(past("replay")/past("serve"), "full-replay/serve-cpu")
		b.ReportMetric(past("serve")/past("floor"), "full-serve/floor-cpu")
		b.ReportMetric(per(cpu["replay"]), "replay-cpu-µs/call")
		b.ReportMetric(per(cpu["floor"]), "floor-cpu-µs/call")
		b.ReportMetric(per(wall["replay"])/per(wall["serve"]), "replay/serve-wall")
		b.ReportMetric(per(cpu["replay"])/per(cpu["serve"]), "replay/serve-cpu")
		b.ReportMetric(per(cpu["serve"])/per(cpu["floor"]), "serve/floor-cpu")

		daemon := startPipeHost(b, store)
		daemon.roundTrip(b, "initialize", []byte(`{"capabilities":{"fork":false}}`))
		fullSession(b, daemon, "s", "/bench/project")
		echoHost := startFloorHost(b, echo)
		// The floor program's round trip too, at a full ledger: how near the least a daemon does per
		// call comes to the echo on this machine, in the same run.
		floorHost := startFloorHost(b, floor)
		fullSession(b, floorHost, "s", "/bench/project")
		// And the echo spending busyWork on each call: what that much work alone costs the round trip here.
		busyHost := startFloorHost(b, echo, "-ns", busyWork.String())
		var lat [4][]time.Duration
		for round := range 10 {
			for k, h := range []*pipeHost{echoHost, daemon, floorHost, busyHost} {
				for i := range 1_000 {
					p := fullsession.ToolCall("s", 100_000+round*1_000+i)
					t0 := time.Now()
					h.roundTrip(b, "tool.call", p)
					lat[k] = append(lat[k], time.Since(t0))
				}
			}
		}
		daemon.stop()
		echoHost.stop()
		floorHost.stop()
		busyHost.stop()
		q := func(d []time.Duration, pct int) float64 {
			slices.Sort(d)
			return float64(d[len(d)*pct/100].Nanoseconds()) / 1e3
		}
		b.ReportMetric(q(lat[0], 50), "echo-p50-µs")
		b.ReportMetric(q(lat[0], 99), "echo-p99-µs")
		b.ReportMetric(q(lat[1], 50), "call-p50-µs")
		b.ReportMetric(q(lat[1], 99), "call-p99-µs")
		b.ReportMetric(q(lat[1], 50)/q(lat[0], 50), "p50/echo")
		b.ReportMetric(q(lat[1], 99)/q(lat[0], 99), "p99/echo")
		b.ReportMetric(q(lat[2], 50), "floor-p50-µs")
		b.ReportMetric(q(lat[2], 50)/q(lat[0], 50), "floor-p50/echo")
		b.ReportMetric(q(lat[1], 50)/q(lat[2], 50), "p50/floor")
		b.ReportMetric(q(lat[3], 50)/q(lat[0], 50), "busy-p50/echo")
	}
}

// buildFloor builds the floor program testdata/floor/name into dir.
func buildFloor(b *testing.B, dir, name string) string {
	out := filepath.Join(dir, "floor-"+name)
	if msg, err := exec.Command("go", "build", "-o", out, "./testdata/floor/"+name).CombinedOutput(); err != nil {
		b.Fatalf("build floor %s: %v\n%s", name, err, msg)
	}
	return out
}

// writeReplay writes a full session and extra more tool.calls as NDJSON host requests
// (fullsession.Replay), and answers how many tool.calls it holds.
func writeReplay(b *testing.B, path string, extra int) int {
	data, calls := fullsession.Replay(extra)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return calls
}

// runOnFile runs argv with file on its stdin to the end, checks that it answered the file's last
// request, and answers its CPU time (user and system) and its wall time.
func runOnFile(b *testing.B, argv []string, file string) (cpu, wall time.Duration) {
	in, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	last := lastID(b, file)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = in
	out, _ := cmd.StdoutPipe()
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	tail := <-tailOf(out, 4096) // all read before Wait, which closes the pipe
	err = cmd.Wait()
	wall = time.Since(t0)
	if err != nil {
		b.Fatalf("%v: %v", argv, err)
	}
	if !bytes.Contains(tail, []byte(`"id":`+last+`,`)) {
		b.Fatalf("%v did not answer the last request (id %s)", argv, last)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall
}

// tailOf reads r to its end and sends its last n bytes at least (from the start of the chunk they
// fall in).
func tailOf(r io.Reader, n int) <-chan []byte {
	ch := make(chan []byte, 1)
	go func() {
		buf := make([]byte, 64<<10)
		var keep []byte
		for {
			k, err := r.Read(buf)
			keep = append(keep, buf[:k]...)
			if len(keep) > 4*n {
				keep = append([]byte(nil), keep[len(keep)-n:]...)
			}
			if err != nil {
				ch <- keep
				return
			}
		}
	}()
	return ch
}

// lastID is the id of the file's last line.
func lastID(b *testing.B, file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	data = bytes.TrimSpace(data)
	line := data[bytes.LastIndexByte(data, '\n')+1:]
	rest := line[bytes.Index(line, []byte(`"id":`))+5:]
	n, err := strconv.Atoi(string(rest[:bytes.IndexByte(rest, ',')]))
	if err != nil {
		b.Fatalf("last line has no id: %s", line)
	}
	return strconv.Itoa(n)
}

// startFloorHost runs a floor program as a pipe host's daemon.
func startFloorHost(b *testing.B, bin string, args ...string) *pipeHost {
	return startHostCmd(b, exec.Command(bin, args...))
}

// busyWork is what the busy echo spends on each call before its answer: about what the tool.call round
// trip's 1.5× of the echo leaves a daemon on the machine these benchmarks were tuned on (busy-p50/echo
// 1.49–1.52 there), so the metric says what the target allows on the machine at hand.
const busyWork = 1500 * time.Nanosecond

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
