package report

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/textout"
)

// BlocksReport is `saverd blocks`: the windows, and the warnings of the logs' reading.
type BlocksReport struct {
	Blocks   []Block  `json:"blocks"`
	Warnings []string `json:"warnings"`
	// None is the table's line when there is no window: what was looked in (NoBlocks).
	None string `json:"-"`
}

// NoBlocks says where no call was found: in the agents' logs, or in what f and active kept of them, in
// the words of the flags that asked for it.
func NoBlocks(f *Filter, active bool) string {
	if active {
		return "no window open now"
	}
	text := "no calls"
	if f.Harness != "" {
		text += " of " + f.Harness
	}
	if f.Span.Unbounded() {
		return text + " in the agents' logs"
	}
	return text + " in the span asked for"
}

// KeepBlocks cuts the calls of recs the filter keeps (its harness, its span; each call by its own time)
// into windows, as they stand at now; active keeps only the open one.
func KeepBlocks(recs []agentlog.Record, o agentlog.Options, f *Filter, now time.Time, active bool) []Block {
	var calls []BlockCall
	for _, call := range Calls(recs, o) {
		if (f.Harness == "" || call.Harness == f.Harness) && f.Span.Within(call.At) {
			calls = append(calls, call)
		}
	}
	blocks := Blocks(calls, now, f.Span.Loc)
	if active {
		open := blocks[:0]
		for _, b := range blocks {
			if b.Active {
				open = append(open, b)
			}
		}
		blocks = open
	}
	if blocks == nil {
		blocks = []Block{}
	}
	return blocks
}

// Write writes the report as json or as a table.
func (rep BlocksReport) Write(w io.Writer, format string) error {
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if format == "json" {
		return textout.WriteJSON(w, rep)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "START\tEND\tHARNESS\tSESSIONS\tCALLS\tTOKENS\tCOST\tPACE\t")
	for _, b := range rep.Blocks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", b.Start.Format("2006-01-02 15:04"), b.End.Format("15:04"),
			b.Harness, b.Sessions, b.Calls, textout.Tokens(b.Tokens.Total()), textout.USD(b.Cost, b.Priced), pace(b))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Blocks) == 0 {
		none := rep.None
		if none == "" {
			none = "no calls in the agents' logs"
		}
		buf.WriteString(none + "\n")
	}
	var unpriced Group
	for _, b := range rep.Blocks {
		unpriced.Add(0, agentlog.Tokens{}, 0, b.Unpriced, 0)
	}
	writeUnpriced(&buf, unpriced)
	_, err := w.Write(textout.TrimRight(buf.Bytes()))
	return err
}

// pace is the open window's line: "active", and with a rate, "$2.10/h, $7.35 by 15:00 (1h40m left)".
func pace(b Block) string {
	switch {
	case !b.Active:
		return ""
	case b.Pace == nil:
		return "active"
	}
	p := b.Pace
	by := textout.Cents(p.ProjectedCost)
	if b.Cost == nil {
		by += "+"
	}
	return fmt.Sprintf("active: %s/h, %s by %s (%s left)", textout.Cents(p.USDPerHour), by, b.End.Format("15:04"),
		textout.Duration(time.Duration(p.RemainingMinutes)*time.Minute))
}
