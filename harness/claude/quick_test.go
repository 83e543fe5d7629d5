package claude

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndexKey: the word-at-a-time search finds what bytes.Index finds, at every alignment, next to
// quotes, near the end and past a quote-free run.
func TestIndexKey(t *testing.T) {
	keys := [][]byte{timestampKey, contentKey, quotedAssistant, quotedCostState, uuidKey, []byte(`"a`)}
	bodies := []string{"", `"`, `""`, `"timestam"`, `"timestamp`, `"timestamp"`, `"content":`, `"assistant"`,
		`{"uuid":"u","timestamp":"t"}`, strings.Repeat("x", 70) + `"timestamp"`, strings.Repeat(`"x`, 40) + `"content"`,
		strings.Repeat("é", 30) + `"a"`, strings.Repeat("line of output\\n", 9) + `","timestamp":"`}
	for _, key := range keys {
		for _, body := range bodies {
			for pre := 0; pre < 17; pre++ {
				for post := 0; post < 10; post++ {
					line := []byte(strings.Repeat("y", pre) + body + strings.Repeat(`"`, post%2) + strings.Repeat("z", post))
					if got, want := indexKey(line, key), bytes.Index(line, key); got != want {
						t.Fatalf("indexKey(%q, %q) = %d, bytes.Index %d", line, key, got, want)
					}
				}
			}
		}
	}
}

func FuzzIndexKey(f *testing.F) {
	f.Add([]byte(`{"type":"user","timestamp":"2026-12-01T10:00:05Z"}`), []byte(`"timestamp"`))
	f.Fuzz(func(t *testing.T, line, key []byte) {
		if len(key) < 2 || key[0] != '"' {
			return
		}
		if got, want := indexKey(line, key), bytes.Index(line, key); got != want {
			t.Fatalf("indexKey(%q, %q) = %d, bytes.Index %d", line, key, got, want)
		}
	})
}

// mayBeCall answers as its first form did: "assistant" searched before the first "content".
func FuzzMayBeCall(f *testing.F) {
	f.Add([]byte(`{"message":{"role":"assistant","content":"x"}}`))
	f.Add([]byte(`{"message":{"content":"x","role":"assistant"}}`))
	f.Add([]byte(`"assistant"content"`))
	f.Fuzz(func(t *testing.T, line []byte) {
		head := line
		if i := bytes.Index(line, contentKey); i >= 0 {
			head = line[:i]
		}
		if got, want := mayBeCall(line), bytes.Contains(head, quotedAssistant); got != want {
			t.Fatalf("mayBeCall(%q) = %v, want %v", line, got, want)
		}
	})
}

// shortLine answers as the three searches it stands for do (its time and whether it has one matter only
// for a line it skips).
func FuzzShortLine(f *testing.F) {
	for _, line := range fixtureLines(f) {
		if len(line) <= costStateLine {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"user","timestamp":"a","x":{"timestamp":"b"}}`))
	f.Add([]byte(`{"type":"x","timestamp" : "2026-12-01T10:00:00Z"}`))
	f.Add([]byte(`{"type":"cost-state","timestamp":"2026-12-01T10:00:00Z"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > costStateLine {
			return
		}
		ts, stamped, ok := shortLine(line)
		wantTS, wantOK := stringField(line, timestampKey)
		wantStamped := bytes.Contains(line, timestampKey)
		if mayBeCall(line) || mayBeCostState(line) {
			wantOK = false
		} else if !wantOK {
			wantOK = !wantStamped
		}
		if ok != wantOK || ok && (stamped != wantStamped || stamped && ts != wantTS) {
			t.Fatalf("shortLine(%q) = %q, %v, %v; want %q, %v, %v", line, ts, stamped, ok, wantTS, wantStamped, wantOK)
		}
	})
}

// BenchmarkQuickPass runs the quick pass's searches over the real client's fixture lines (shortLine over
// those of at most costStateLine bytes, longLine over the others) and over a line of the kind that makes
// most of a transcript's bytes: a tool's 6 KB output, the line's own timestamp after it.
func BenchmarkQuickPass(b *testing.B) {
	long := []byte(`{"parentUuid":"a0","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"` +
		strings.Repeat(`line of tool output that the agent read back into its context\n`, 100) +
		`"}]},"uuid":"00000000-0000-4000-8000-000000000001","timestamp":"2026-11-02T01:41:00.000Z","toolUseResult":{}}`)
	for _, c := range []struct {
		name  string
		lines [][]byte
	}{{"fixtures", fixtureLines(b)}, {"tool-output", [][]byte{long}}} {
		b.Run(c.name, func(b *testing.B) {
			var size int64
			for _, l := range c.lines {
				size += int64(len(l))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for range b.N {
				for _, l := range c.lines {
					if len(l) <= costStateLine {
						shortLine(l)
					} else {
						longLine(l)
					}
				}
			}
		})
	}
}
