package state_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestFoldedRecordsAreCapped: keys folded out of the row window were never capped (200,000 distinct
// commands held 700 MB). Past FoldedCap the smallest merge into OtherKeys records, and every total the
// views draw is what it was.
func TestFoldedRecordsAreCapped(t *testing.T) {
	tests := []struct {
		name string
		rows int
		keys int // distinct keys among them
	}{
		{"distinct keys", 3*state.RowCap + state.FoldedCap, 3*state.RowCap + state.FoldedCap},
		{"repeated keys stay per key", 3 * state.RowCap, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state.New("/w", 200_000)
			var all []state.Row
			for i := range tt.rows {
				k := i % tt.keys
				r := state.Row{ID: fmt.Sprint("r", i), Tool: []string{"Bash", "Read", "AskUserQuestion", "Agent"}[k%4],
					Key: fmt.Sprint("key ", k), Cls: []state.CommandClass{state.ClassTest, state.ClassRead, state.ClassOther}[k%3],
					Agent: []string{state.MainAgent, "sub-1"}[k%2], Turn: 1 + i/100, Ms: int64(k % 97), Chars: int64(k % 1013),
					Flags: []string{}, Paths: []string{}}
				if k%5 == 0 {
					r.Flags = []string{"ask", "err"}
				}
				state.Reduce(s, state.AddRow{Row: r})
				all = append(all, r)
			}
			if len(s.Folded) > state.FoldedCap+12 { // the cap, plus one OtherKeys record per tool, class and loop
				t.Fatalf("%d folded records, cap %d", len(s.Folded), state.FoldedCap)
			}
			if tt.keys <= state.FoldedCap {
				for _, f := range s.Folded {
					if f.Key == state.OtherKeys {
						t.Fatalf("keys under the cap were merged: %+v", f)
					}
				}
			}
			for _, m := range []state.Measure{state.MeasureMs, state.MeasureChars} {
				if got, want := state.SinkReportOf(s.Rows, s.Folded, m), state.SinkReportOf(all, nil, m); !reflect.DeepEqual(got, want) {
					t.Errorf("measure %d: sinks %+v, want %+v", m, got, want)
				}
			}
			var count, asks, errs int
			for _, f := range s.Folded {
				count += f.Count
				asks += f.Flags.Ask
				errs += f.Flags.Err
			}
			wantAsks := 0
			for _, r := range all[:len(all)-len(s.Rows)] {
				if r.HasFlag("ask") {
					wantAsks++
				}
			}
			if count != len(all)-len(s.Rows) || asks != wantAsks || errs != wantAsks {
				t.Errorf("folded count %d asks %d errs %d, want %d, %d, %d", count, asks, errs, len(all)-len(s.Rows), wantAsks, wantAsks)
			}
		})
	}
}
