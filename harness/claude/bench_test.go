package claude

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
)

var (
	corpusDir   = flag.String("corpus", "", "BenchmarkScanCorpus: build (or reuse) the corpus in this directory and keep it")
	corpusFiles = flag.Int("corpus-files", 5000, "BenchmarkScanCorpus: transcripts in the corpus")
	corpusMB    = flag.Int("corpus-mb", 2048, "BenchmarkScanCorpus: corpus size in MB")
)

// BenchmarkScanCorpus reads a generated corpus of Claude Code transcripts (5,000 files, 2 GB by default:
// the goal is ≥ 200 MB/s on 2 cores with peak RSS under 200 MB). The corpus is built in a temporary
// directory that is removed at the end, unless -corpus names one to keep (for the ccusage comparison).
//
//	go test -run '^$' -bench ScanCorpus -benchtime 1x ./harness/claude
func BenchmarkScanCorpus(b *testing.B) {
	dir := *corpusDir
	if dir == "" {
		dir = b.TempDir()
	}
	root := filepath.Join(dir, "claude")
	if _, err := os.Stat(filepath.Join(root, "projects")); err != nil {
		if err := writeCorpus(root, *corpusFiles, int64(*corpusMB)<<20); err != nil {
			b.Fatal(err)
		}
	}
	files, warn := Harness{}.Discover([]string{root})
	if len(warn) > 0 {
		b.Fatal(warn)
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	runtime.GC()
	b.SetBytes(total)
	cpu0 := cpuTime()
	b.ResetTimer()
	var calls int
	for range b.N {
		recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
		if len(warn) > 0 {
			b.Fatal(warn[0])
		}
		calls = 0
		for _, r := range recs {
			calls += r.Calls
		}
	}
	b.StopTimer()
	// Per CPU-second as well: the machine is shared, so wall time says as much about the neighbours.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peakRSS-MB")
	}
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(calls), "calls")
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeCorpus writes n transcripts of about size/n bytes each, shaped like Claude Code's: per API call
// one assistant line per content block (a text and a tool_use, repeating the usage), a user line with
// the tool's result (the result twice: as the model saw it and as toolUseResult), and the bookkeeping lines
// between, every line ending in Claude Code's envelope. The model is one ccusage prices offline too.
func writeCorpus(root string, n int, size int64) error {
	per := size / int64(n)
	result := strings.Repeat("line of tool output that the agent read back into its context\n", 100) // ~6 KB
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := range n {
		proj := filepath.Join(root, "projects", fmt.Sprintf("-home-dev-src-p%d", i%50))
		if err := os.MkdirAll(proj, 0o700); err != nil {
			return err
		}
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		f, err := os.Create(filepath.Join(proj, id+".jsonl"))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		at := start.Add(time.Duration(i) * 7 * time.Minute)
		var written int64
		for c := 0; written < per; c++ {
			ts := at.Add(time.Duration(c) * time.Second).Format(time.RFC3339Nano)
			usage := fmt.Sprintf(`{"input_tokens":%d,"cache_creation_input_tokens":200,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":200}}`,
				900+c%200, 5000+c*10, 40+c%30)
			// The envelope in Claude Code 2.1.328's order: the line's uuid, its timestamp, then where it ran.
			where := fmt.Sprintf(`"cwd":"/home/dev/src/p%d","sessionId":"%s","version":"2.1.328","gitBranch":"main"`, i%50, id)
			common := fmt.Sprintf(`"timestamp":"%s",%s`, ts, where)
			lines := []string{
				fmt.Sprintf(`{"type":"api-request","requestRef":"r%d","uuid":"q%d",%s}`, c, c, common),
				fmt.Sprintf(`{"parentUuid":"u%d","isSidechain":false,"message":{"id":"msg_%d_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Looking at the file next."}],"stop_reason":"tool_use","usage":%s},"requestId":"req_%d_%d","type":"assistant","uuid":"a%d",%s}`, c, i, c, usage, i, c, c, common),
				fmt.Sprintf(`{"parentUuid":"a%d","isSidechain":false,"message":{"id":"msg_%d_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"toolu_%d_%d","name":"Read","input":{"file_path":"/home/dev/src/p/f%d.go"}}],"stop_reason":"tool_use","usage":%s},"requestId":"req_%d_%d","type":"assistant","uuid":"b%d",%s}`, c, i, c, i, c, c, usage, i, c, c, common),
				fmt.Sprintf(`{"parentUuid":"b%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d_%d","type":"tool_result","content":%q}]},"uuid":"u%d","timestamp":"%s","toolUseResult":{"type":"text","file":{"filePath":"/home/dev/src/p/f%d.go","content":%q,"numLines":100}},%s}`, c, i, c, result, c+1, ts, c, result, where),
				fmt.Sprintf(`{"type":"attachment","attachment":{"type":"todo_reminder","content":[]},"uuid":"t%d",%s}`, c, common),
			}
			for _, l := range lines {
				k, _ := w.WriteString(l + "\n")
				written += int64(k)
			}
		}
		fmt.Fprintf(w, `{"type":"last-prompt","lastPrompt":"go on","sessionId":"%s"}`+"\n", id)
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
