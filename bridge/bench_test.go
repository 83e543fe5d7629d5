package bridge_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
)

// benchLog is a long session's log for the readers' benchmarks: the fixture's turns written again and
// again (each copy's ids its own) with a 20 kB tool output beside each copy, as long sessions hold, to
// about size bytes. last is where the last copy begins: the turn a Stop hook reads.
func benchLog(b *testing.B, fixture string, size int, ids ...string) (path string, last int64) {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		b.Fatal(err)
	}
	pad := `{"type": "progress", "timestamp": "2026-12-01T19:33:50.000Z", "data": {"output": "` + strings.Repeat("ok  \\tpkg\\t0.1s\\n", 1400) + `"}}` + "\n"
	var out bytes.Buffer
	for i := 0; out.Len() < size; i++ {
		last = int64(out.Len())
		copy := string(data)
		for _, id := range ids {
			copy = strings.ReplaceAll(copy, id, fmt.Sprintf("%s%d_", id, i))
		}
		out.WriteString(copy)
		out.WriteString(pad)
	}
	path = filepath.Join(b.TempDir(), fixture)
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	return path, last
}

// BenchmarkReadUsage is what a hook pays to price a turn (a Stop reads the turn's tail, through its
// harness's TurnUsage) and a join to read a whole transcript or rollout of 20 MB.
//
//	go test -run '^$' -bench 'ReadUsage|HeldTexts|History' -benchmem ./bridge
func BenchmarkReadUsage(b *testing.B) {
	cc, ccLast := benchLog(b, "transcript-two-turns.jsonl", 20<<20, `"msg_`, `"toolu_`, `"requestId": "`)
	cx, cxLast := benchLog(b, "codex-rollout.jsonl", 20<<20, `"resp_`, `"call_`)
	for _, c := range []struct {
		name string
		h    harness.Live
		path string
		from int64
	}{
		{"claude-turn", claude.Harness{}, cc, ccLast},
		{"claude-whole", claude.Harness{}, cc, 0},
		{"codex-turn", codex.Harness{}, cx, cxLast},
		{"codex-whole", codex.Harness{}, cx, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			fi, _ := os.Stat(c.path)
			b.SetBytes(fi.Size() - c.from)
			for range b.N {
				if u, _, err := c.h.TurnUsage(c.path, bridge.Cursor{Off: c.from}); err != nil || u.Calls == 0 {
					b.Fatalf("TurnUsage = %+v, %v", u, err)
				}
			}
		})
	}
}

// BenchmarkHeldTexts is a join's look for the standing instructions in a 20 MB transcript.
func BenchmarkHeldTexts(b *testing.B) {
	path, _ := benchLog(b, "transcript-two-turns.jsonl", 20<<20, `"msg_`, `"toolu_`, `"requestId": "`)
	texts := []string{"Run the one failing test, not the whole suite.", "Read only the lines you need."}
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	for range b.N {
		claude.Harness{}.HeldTexts(path, texts)
	}
}

// BenchmarkHistory is a join's reading of a 20 MB transcript or rollout into the messages it adopts,
// through its harness's History within a hook's bounds (as session/hook.go's historyOf reads it).
func BenchmarkHistory(b *testing.B) {
	cc, _ := benchLog(b, "transcript-two-turns.jsonl", 20<<20, `"msg_`, `"toolu_`, `"requestId": "`)
	cx, _ := benchLog(b, "codex-rollout.jsonl", 20<<20, `"resp_`, `"call_`)
	for _, c := range []struct {
		name string
		h    harness.Logs
		path string
	}{{"claude", claude.Harness{}, cc}, {"codex", codex.Harness{}, cx}} {
		b.Run(c.name, func(b *testing.B) {
			fi, _ := os.Stat(c.path)
			b.SetBytes(fi.Size())
			for range b.N {
				tr, err := c.h.History(c.path, "", agentlog.Options{Limits: bridge.Limits()})
				if err != nil || len(tr.Messages) == 0 {
					b.Fatalf("History = %d messages, %v", len(tr.Messages), err)
				}
			}
		})
	}
}
