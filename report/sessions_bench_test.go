package report

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/textout"
)

// BenchmarkSessionsJSON is `saverd sessions --format json`'s writing alone, over 5,000 sessions (the
// fixtures' records, each under an id of its own): the encoder saverd writes with beside encoding/json's
// indented encoder, which writes the same bytes.
//
//	go test -run '^$' -bench SessionsJSON -benchmem ./report
func BenchmarkSessionsJSON(b *testing.B) {
	recs, warn := scanFixtures(b)
	many := make([]agentlog.Record, 0, 5000)
	for i := 0; len(many) < cap(many); i++ {
		r := recs[i%len(recs)]
		r.SessionID = fmt.Sprintf("%s-%d", r.SessionID, i)
		many = append(many, r)
	}
	rep := sessionsJSON{Sessions: many, Totals: Totals(many), Warnings: warn}
	for _, enc := range []struct {
		name  string
		write func(io.Writer, sessionsJSON) error
	}{
		{"saverd", writeSessionsJSON},
		{"encoding-json", func(w io.Writer, r sessionsJSON) error { return textout.WriteJSON(w, r) }},
	} {
		b.Run(enc.name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if err := enc.write(&out, rep); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(out.Len()))
		})
	}
}
