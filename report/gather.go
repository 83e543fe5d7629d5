package report

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/impact"
	"github.com/saverd/saverd/internal/timespan"
)

// Sources are what `saverd report` draws the page from beside the sessions the logs hold: the span it
// keeps, the daemon's sessions log (for the habits), impact's options (repositories, days, decisions,
// git) and its now.
type Sources struct {
	Span        timespan.Span // resolved
	SessionsLog string        // the daemon's sessions log; "" for none
	Impact      impact.Options
	Now         time.Time
}

// Gather is the page's input: the sessions active in the span, the daemon's records in it, and impact
// run over the same sessions; warn are the warnings of the logs' reading, which the input carries on
// with the daemon log's and impact's own.
func Gather(ctx context.Context, recs []agentlog.Record, warn []string, src Sources) (Input, error) {
	recs = within(recs, &src.Span)
	daemon, w := daemonRecords(src.SessionsLog, &src.Span)
	warn = append(warn, w...)
	in := Input{Sessions: recs, Daemon: daemon, Loc: src.Span.Loc, Now: src.Now}
	var err error
	if in.Impact, w, err = impactOf(ctx, recs, src.Impact); err != nil {
		return Input{}, err
	}
	in.Warnings = append(warn, w...)
	return in, nil
}

// within keeps the sessions active in the span.
func within(recs []agentlog.Record, span *timespan.Span) []agentlog.Record {
	out := recs[:0:0]
	for _, r := range recs {
		if span.Overlaps(r.Start, r.End) {
			out = append(out, r)
		}
	}
	return out
}

// daemonRecords are the daemon's records in the span, for what saverd found and fixed.
func daemonRecords(sessionsLog string, span *timespan.Span) ([]agentlog.Record, []string) {
	if sessionsLog == "" {
		return nil, nil
	}
	raw, warn := agentlog.DaemonRecords(sessionsLog)
	var out []agentlog.Record
	for _, line := range raw {
		var r agentlog.Record
		if err := json.Unmarshal(line, &r); err != nil {
			warn = append(warn, fmt.Sprintf("%s: a record that does not read: %v", sessionsLog, err))
			continue
		}
		if span.Overlaps(r.Start, r.End) {
			out = append(out, r)
		}
	}
	return out, warn
}

// impactOf links the sessions to commits; with no session there is no section, and no error.
func impactOf(ctx context.Context, recs []agentlog.Record, opt impact.Options) (*impact.Report, []string, error) {
	if len(recs) == 0 {
		return nil, nil, nil
	}
	for i := range recs {
		raw, err := json.Marshal(&recs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("session %s: %w", recs[i].SessionID, err)
		}
		opt.Found = append(opt.Found, raw)
	}
	rep, err := impact.Query(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	return rep, rep.Warnings, nil
}
