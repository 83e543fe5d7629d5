package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The soak: 50 sessions of 20,000 tool calls each, 2 KB outputs, half the commands distinct and half
// repeating, all through one daemon. RSS and the p99 round trip are measured at the start and at the end;
// the limits (rows, folded keys) are what keep the end close to the start.
//
//	go test -run '^$' -bench DaemonSoak -benchtime 1x ./cmd/saverd

const (
	soakSessions = 50
	soakCalls    = 20_000
	soakSample   = 2_000 // round trips timed at the start and at the end
)

// soakCall is tool.call number i of session s: even calls run a distinct command, odd ones one of 50.
func soakCall(s, i int) []byte {
	command := fmt.Sprintf("grep -rn needle-%d-%d src", s, i)
	if i%2 == 1 {
		command = fmt.Sprintf("npm test suite-%02d", i%50)
	}
	p, _ := json.Marshal(map[string]any{
		"sessionId": fmt.Sprintf("soak-%d", s), "at": 1_000_000 + i, "ms": 40,
		"event":  map[string]any{"tool": "Bash", "tool_use_id": fmt.Sprintf("t%d-%d", s, i), "command": command},
		"result": map[string]any{"text": strings.Repeat("output line of a tool\n", 93)}, // 2 KB
	})
	return p
}

// timedSample makes n round trips, spread over the sessions, and returns their p50 and p99; with
// -soak-tail it logs the slowest, each with its session and call, to tell a cost every session pays at
// one call (they land together, the feed being in lockstep) from the machine's noise.
func timedSample(b *testing.B, h *pipeHost, from, n int) (p50, p99 time.Duration) {
	type timed struct {
		d       time.Duration
		s, call int
	}
	lat := make([]timed, 0, n)
	for k := 0; k < n; k++ {
		s, call := k%soakSessions, from+k/soakSessions
		p := soakCall(s, call)
		t0 := time.Now()
		h.roundTrip(b, "tool.call", p)
		lat = append(lat, timed{time.Since(t0), s, call})
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i].d < lat[j].d })
	if *soakTail {
		var tail []string
		for _, t := range lat[len(lat)*98/100:] {
			tail = append(tail, fmt.Sprintf("%dµs s%d/c%d", t.d.Microseconds(), t.s, t.call))
		}
		b.Logf("slowest 2%% of calls %d-%d: %s", from, from+n/soakSessions-1, strings.Join(tail, " "))
	}
	return lat[len(lat)/2].d, lat[len(lat)*99/100].d
}

// soakProfile, when set, is where the soak's daemon writes its heap profile (--memprofile) as it exits.
var soakProfile = flag.String("soak-memprofile", "", "BenchmarkDaemonSoak: the daemon's heap profile, written at its exit")

// soakTail, when set, logs the slowest calls of each timed sample.
var soakTail = flag.Bool("soak-tail", false, "BenchmarkDaemonSoak: log the slowest 2% of each timed sample")

func BenchmarkDaemonSoak(b *testing.B) {
	for range min(b.N, 1) { // fixed at one soak, whatever -benchtime says: one takes a minute
		args := []string{"--store", b.TempDir(), "--log-level", "error"}
		if *soakProfile != "" {
			args = append(args, "--memprofile", *soakProfile)
		}
		h := startHostCmd(b, exec.Command(plainBinary(b), args...))
		h.roundTrip(b, "initialize", []byte(`{"capabilities":{"fork":false}}`))
		for s := range soakSessions {
			h.roundTrip(b, "session.start", []byte(fmt.Sprintf(`{"sessionId":"soak-%d","cwd":"/soak/p%d","at":1000,"usage":{"window":1000000}}`, s, s)))
		}
		perSession := soakSample / soakSessions
		p50Start, p99Start := timedSample(b, h, 0, soakSample)
		rssStart := residentKB(b, h.cmd.Process.Pid)

		// The bulk, streamed: the host does not wait for each reply.
		bulkFrom, bulkTo := perSession, soakCalls-perSession
		total := (bulkTo - bulkFrom) * soakSessions
		firstID := h.id + 1
		h.id += total
		last := []byte(`"id":` + strconv.Itoa(h.id) + `,`)
		go func() {
			w := bufio.NewWriterSize(h.in, 64<<10)
			id := firstID
			for i := bulkFrom; i < bulkTo; i++ {
				for s := range soakSessions {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}`+"\n", id, soakCall(s, i))
					id++
				}
			}
			_ = w.Flush()
		}()
		start := time.Now()
		for {
			line, err := h.out.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			if bytes.Contains(line, last) {
				break
			}
		}
		bulk := time.Since(start)

		p50End, p99End := timedSample(b, h, bulkTo, soakSample)
		rssEnd := residentKB(b, h.cmd.Process.Pid)
		b.ReportMetric(float64(rssStart)/1024, "RSS-start-MB")
		b.ReportMetric(float64(rssEnd)/1024, "RSS-end-MB")
		b.ReportMetric(float64(p50Start.Microseconds()), "p50-start-µs")
		b.ReportMetric(float64(p50End.Microseconds()), "p50-end-µs")
		b.ReportMetric(float64(p99Start.Microseconds()), "p99-start-µs")
		b.ReportMetric(float64(p99End.Microseconds()), "p99-end-µs")
		b.ReportMetric(float64(total)/bulk.Seconds(), "bulk-events/s")
		h.stop()
	}
}
