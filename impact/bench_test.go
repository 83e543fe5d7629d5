//go:build unix

package impact

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchCommits is the size of the generated history. It is built only by
// the benchmark; normal tests never pay for it.
const benchCommits = 20000

// genRepo writes a repository of n commits with git fast-import: one
// commit a minute from base, 1–3 files changed each, a third of them with
// a Claude trailer, some naming a revert. All are by the local author, so
// every commit is parsed in full, kept and linked: the worst case.
func genRepo(b *testing.B, dir string, n int, base time.Time) {
	b.Helper()
	runGit(b, "", nil, "init", "-q", "-b", "main", dir)
	runGit(b, dir, nil, "config", "user.email", me)
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(in)
	data := func(s string) { fmt.Fprintf(w, "data %d\n%s\n", len(s), s) }
	for i := 1; i <= n; i++ {
		ts := base.Add(time.Duration(i) * time.Minute).Unix()
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", i)
		fmt.Fprintf(w, "author A <%s> %d +0000\ncommitter A <%s> %d +0000\n", me, ts, me, ts)
		msg := fmt.Sprintf("change %d\n\nA body line that describes change %d in some detail.\n", i, i)
		switch {
		case i%50 == 0:
			msg += fmt.Sprintf("\nThis reverts commit %07x.\n", i)
		case i%3 == 0:
			msg += claude + "\n"
		}
		data(msg)
		if i > 1 {
			fmt.Fprintf(w, "from :%d\n", i-1)
		}
		for k := 0; k <= i%3; k++ {
			var content strings.Builder
			for l := 0; l < 20; l++ {
				fmt.Fprintf(&content, "file %d line %d version %d\n", (i+k*7)%400, l, (i/(l+1))%5)
			}
			fmt.Fprintf(w, "M 100644 inline dir%d/file%d.txt\n", (i+k*7)%20, (i+k*7)%400)
			data(content.String())
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("fast-import: %v", err)
	}
}

// BenchmarkScan compares impact with the bare git log it runs:
//
//	git-log: the log command alone, output discarded
//	scan:    the same log streamed and parsed (L-scan without the extras)
//	parse:   the parsing alone, on the log output held in memory: the cost
//	         impact adds on top of git
//	query:   all of Query (refs, config, log, rev-list, linking, summary)
//	ratio:   query and git-log alternated (ratioPairs pairs per iteration);
//	         reports the median query / git-log ratio of wall time (wall-x)
//	         and of CPU time of this process and its git children (cpu-x),
//	         which a busy machine disturbs less
func BenchmarkScan(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "big")
	base := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	genRepo(b, dir, benchCommits, base)
	last := base.Add(benchCommits * time.Minute)
	bnow := last.Add(time.Hour)
	// A Claude session takes the trailer commits, a Codex one (no trailer
	// link) the rest as window candidates: every commit ends in a record.
	sessions := writeSessions(b,
		busy("claude", "claude-code", dir, base.Add(PreMin), last, 100),
		busy("codex", "codex", dir, base.Add(PreMin), last, 50))
	opt := Options{Sessions: []string{sessions}, Now: bnow, Days: 60}
	from := base

	gitLog := func() (wall, cpu time.Duration) {
		start, cpu0 := time.Now(), cpuTime()
		cmd := exec.Command("git", logArgs(from)...)
		cmd.Dir = dir
		cmd.Env = gitEnv()
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start), cpuTime() - cpu0
	}
	runQuery := func() (wall, cpu time.Duration, rep *Report) {
		start, cpu0 := time.Now(), cpuTime()
		rep, err := Query(context.Background(), opt)
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start), cpuTime() - cpu0, rep
	}
	_, _, rep := runQuery()
	linked := 0
	for _, r := range rep.Records {
		linked += len(r.Commits)
	}
	if linked != benchCommits || len(rep.Warnings) != 0 {
		b.Fatalf("query linked %d commits, want %d; warnings %v", linked, benchCommits, rep.Warnings)
	}

	b.Run("git-log", func(b *testing.B) {
		for b.Loop() {
			gitLog()
		}
	})
	b.Run("scan", func(b *testing.B) {
		p := scanParams{from: from, now: bnow, local: map[string]bool{me: true}, linkable: func(time.Time) bool { return true }}
		for b.Loop() {
			if _, err := scanLog(context.Background(), git{bin: "git"}, dir, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		cmd := exec.Command("git", logArgs(from)...)
		cmd.Dir = dir
		cmd.Env = gitEnv()
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
		p := scanParams{from: from, now: bnow, local: map[string]bool{me: true}, linkable: func(time.Time) bool { return true }}
		for b.Loop() {
			if _, err := parseLog(bytes.NewReader(out), p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("query", func(b *testing.B) {
		for b.Loop() {
			runQuery()
		}
	})
	// ratio alternates the two and reports the median of the per-pair
	// ratios: a busy machine slows single runs at random, and the median
	// of pairs run back to back shrugs that off better than sums do.
	ratio := func(b *testing.B) {
		var wall, cpu []float64
		for b.Loop() {
			for range ratioPairs {
				gw, gc := gitLog()
				qw, qc, _ := runQuery()
				wall = append(wall, float64(qw)/float64(gw))
				cpu = append(cpu, float64(qc)/float64(gc))
			}
		}
		b.ReportMetric(median(wall), "wall-x")
		b.ReportMetric(median(cpu), "cpu-x")
	}
	b.Run("ratio", ratio)
	_ = os.RemoveAll(dir)
}

// ratioPairs is how many git-log/query pairs one ratio iteration runs.
const ratioPairs = 5

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cpuTime is the CPU time used so far by this process and its waited-for
// children (the git processes).
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		return 0
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
}
