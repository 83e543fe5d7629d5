package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/internal/fullsession"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/store"
)

// The daemon's speed, measured as a host sees it: the real binary (built without -race), real pipes.
//
//	go test -run '^$' -bench 'Daemon' -benchtime 20000x ./cmd/saverd

var (
	plainOnce sync.Once
	plainBin  string
	plainErr  error
)

// benchBinary, when set, is the saverd binary the benchmarks run instead of one built from this tree:
// so two builds can be measured turn about in one loop.
var benchBinary = flag.String("saverd-binary", "", "benchmarks: run this saverd binary instead of building one")

// plainBinary builds saverd without the race detector, once (or answers -saverd-binary).
func plainBinary(b *testing.B) string {
	if *benchBinary != "" {
		return *benchBinary
	}
	plainOnce.Do(func() {
		plainBin = filepath.Join(filepath.Dir(binPath), "saverd-plain")
		out, err := exec.Command("go", "build", "-o", plainBin, ".").CombinedOutput()
		if err != nil {
			plainErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if plainErr != nil {
		b.Fatal(plainErr)
	}
	return plainBin
}

// pipeHost is a minimal synchronous host: one request, then frames until its reply.
type pipeHost struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int

	stopOnce sync.Once
}

// stop ends the daemon (EOF on its stdin) and waits for it; a benchmark calls it at the end of each
// iteration so daemons never pile up, and the cleanup calls it again for one that failed midway.
func (h *pipeHost) stop() {
	h.stopOnce.Do(func() {
		h.in.Close()
		_ = h.cmd.Wait()
	})
}

func startPipeHost(b *testing.B, storeDir string) *pipeHost {
	return startHostCmd(b, exec.Command(plainBinary(b), "--store", storeDir, "--log-level", "error"))
}

// startHostCmd starts cmd as a pipe host's daemon; the cleanup stops it.
func startHostCmd(b *testing.B, cmd *exec.Cmd) *pipeHost {
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	h := &pipeHost{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	b.Cleanup(h.stop)
	return h
}

// roundTrip sends one request and reads up to its reply, skipping notifications.
func (h *pipeHost) roundTrip(b *testing.B, method string, params []byte) []byte {
	h.id++
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.WriteString(strconv.Itoa(h.id))
	buf.WriteString(`,"method":"`)
	buf.WriteString(method)
	buf.WriteString(`","params":`)
	buf.Write(params)
	buf.WriteString("}\n")
	if _, err := h.in.Write(buf.Bytes()); err != nil {
		b.Fatal(err)
	}
	for {
		line, err := h.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("read reply to %s: %v", method, err)
		}
		if bytes.Contains(line, []byte(`"id":`+strconv.Itoa(h.id)+`,`)) {
			if bytes.Contains(line, []byte(`"error"`)) && method != "view.band" {
				b.Fatalf("%s failed: %s", method, line)
			}
			return line
		}
	}
}

// seedStore writes a registry of MaxPatterns stored patterns for cwd, so every session starts full.
func seedStore(b *testing.B, dir, cwd string) {
	st, err := store.Open(dir, zerolog.Nop())
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Update(state.StoreKey(cwd), func(any) (any, error) { return fullsession.Patterns(), nil }); err != nil {
		b.Fatal(err)
	}
}

// fullSession starts a session and fills it past RowCap with 400 loops and 50 patterns.
func fullSession(b *testing.B, h *pipeHost, session, cwd string) {
	h.roundTrip(b, "session.start", []byte(fmt.Sprintf(`{"sessionId":%q,"cwd":%q,"at":1000,"usage":{"window":1000000}}`, session, cwd)))
	h.roundTrip(b, "turn.start", []byte(fmt.Sprintf(`{"sessionId":%q,"at":1001}`, session)))
	for i := 0; i < fullsession.Calls; i++ {
		h.roundTrip(b, "tool.call", fullsession.ToolCall(session, i))
	}
}

func BenchmarkDaemonToolCall(b *testing.B) {
	storeDir, cwd := b.TempDir(), "/bench/project"
	seedStore(b, storeDir, cwd)
	h := startPipeHost(b, storeDir)
	h.roundTrip(b, "initialize", []byte(`{"capabilities":{"fork":false}}`))
	fullSession(b, h, "s", cwd)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		p := fullsession.ToolCall("s", 10_000+i)
		t0 := time.Now()
		h.roundTrip(b, "tool.call", p)
		lat = append(lat, time.Since(t0))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
}

// BenchmarkDaemonThroughput streams tool.calls at the daemon as fast as it takes them (the host does not
// wait for each reply before sending the next) and counts the replies: the daemon still applies them one
// at a time, in order, so this is its sequential rate.
func BenchmarkDaemonThroughput(b *testing.B) {
	storeDir, cwd := b.TempDir(), "/bench/project"
	seedStore(b, storeDir, cwd)
	h := startPipeHost(b, storeDir)
	h.roundTrip(b, "initialize", []byte(`{"capabilities":{"fork":false}}`))
	fullSession(b, h, "s", cwd)
	reqs := make([][]byte, b.N)
	for i := range reqs {
		h.id++
		reqs[i] = []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}`+"\n", h.id, fullsession.ToolCall("s", 20_000+i)))
	}
	last := []byte(`"id":` + strconv.Itoa(h.id) + `,`)
	b.ResetTimer()
	start := time.Now()
	go func() {
		w := bufio.NewWriterSize(h.in, 64<<10)
		for _, r := range reqs {
			_, _ = w.Write(r)
		}
		_ = w.Flush()
	}()
	for {
		line, err := h.out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Contains(line, last) {
			break
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkDaemonMemory10Sessions is fixed at one daemon, whatever -benchtime says: its figure is one
// daemon's resident memory, and a second daemon would only measure the same again.
//
//	go test -run '^$' -bench DaemonMemory -benchtime 1x ./cmd/saverd
func BenchmarkDaemonMemory10Sessions(b *testing.B) {
	storeDir, cwd := b.TempDir(), "/bench/project"
	seedStore(b, storeDir, cwd)
	for range min(b.N, 1) {
		h := startPipeHost(b, storeDir)
		h.roundTrip(b, "initialize", []byte(`{"capabilities":{"fork":false}}`))
		for s := 0; s < 10; s++ {
			fullSession(b, h, fmt.Sprintf("s%d", s), cwd)
		}
		h.roundTrip(b, "view.pane", []byte(`{"sessionId":"s9"}`))
		rss := residentKB(b, h.cmd.Process.Pid)
		b.ReportMetric(float64(rss)/1024, "RSS-MB")
		h.stop()
	}
}

// residentKB reads VmRSS from /proc.
func residentKB(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// BenchmarkDaemonTransport is the pipe round trip alone: a request the daemon refuses at once.
func BenchmarkDaemonTransport(b *testing.B) {
	h := startPipeHost(b, b.TempDir())
	h.roundTrip(b, "initialize", []byte(`{}`))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.roundTrip(b, "view.band", []byte(`{"sessionId":"none"}`))
	}
}
