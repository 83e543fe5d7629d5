package detect

import (
	"fmt"
	"testing"

	"github.com/saverd/saverd/state"
)

// fullLedger is a ledger at RowCap: 50 turns of reads, edits, searches and test runs over 300 files,
// so that every detector has candidates to weigh and most of them are look-alikes.
func fullLedger() Session { return ledgerOf(40) }

// ledgerOf is fullLedger with perTurn rows a turn.
func ledgerOf(perTurn int) Session {
	s := newSession()
	for i := 0; len(s.rows) < state.RowCap; i++ {
		if i%perTurn == 0 {
			s.prompt()
		}
		file := fmt.Sprintf("/home/dev/shop/src/mod%d/file%d.ts", i%30, i%300)
		switch i % 8 {
		case 0, 1, 2:
			s.read(file, 3000)
		case 3:
			s.edit(file, "a", "b")
		case 4:
			s.grep(fmt.Sprintf("sym%d", i%50), "src", nil, 800)
		case 5:
			s.bash("npx jest", 4000)
		case 6:
			s.read(fmt.Sprintf("/home/dev/shop/src/mod%d/file%d.test.ts", i%30, i%300), 2000)
		default:
			s.bash(fmt.Sprintf("rg -n sym%d src", i%50), 900)
		}
	}
	return s.session()
}

// BenchmarkRun: every detector over a full ledger, as a live session runs them at a turn's end: 50
// turns of 40 rows, and one agentic turn of all 2,000.
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name    string
		perTurn int
	}{{"50-turns", 40}, {"one-turn", state.RowCap}} {
		b.Run(c.name, func(b *testing.B) {
			s := ledgerOf(c.perTurn)
			b.ReportAllocs()
			for b.Loop() {
				Run(s)
			}
		})
	}
}

// BenchmarkRepeats: the audit's grouping over a full ledger.
func BenchmarkRepeats(b *testing.B) {
	s := fullLedger()
	b.ReportAllocs()
	for b.Loop() {
		Repeats(s)
	}
}
