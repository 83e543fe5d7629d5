package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/report"
	"github.com/saverd/saverd/state/view"
)

// sessionsReport is `saverd sessions --format json`.
type sessionsReport struct {
	Sessions []agentlog.Record `json:"sessions"`
	By       []group           `json:"by,omitempty"`
	Totals   group             `json:"totals"`
	Warnings []string          `json:"warnings"`
}

func (c *sessionsCmd) write(w io.Writer, recs []agentlog.Record, warn []string) error {
	if recs == nil {
		recs = []agentlog.Record{}
	}
	if warn == nil {
		warn = []string{}
	}
	var by []group
	if c.by != "" {
		by = report.By(recs, c.by, c.span.Loc)
	}
	switch c.format {
	case "json":
		return writeSessionsJSON(w, sessionsReport{Sessions: recs, By: by, Totals: totals(recs), Warnings: warn})
	case "ndjson":
		return writeNDJSON(w, recs, by, c.by != "")
	case "csv":
		if c.by != "" {
			return writeGroupsCSV(w, c.by, by)
		}
		return writeSessionsCSV(w, recs)
	}
	if c.by != "" {
		return writeGroupsTable(w, strings.ToUpper(c.by), by, totals(recs))
	}
	return writeSessionsTable(w, recs, c.span.Loc)
}

// writeSessionsJSON writes rep as writeJSON does, byte for byte, with the sessions encoded in parallel:
// thousands of sessions took one encoder a twentieth of `saverd sessions`, on one core, after the
// reading. Each session is encoded at its depth in the report (its lines indented four spaces), and
// the array is put where the report encoded without sessions has its empty one.
func writeSessionsJSON(w io.Writer, rep sessionsReport) error {
	recs := rep.Sessions
	rep.Sessions = []agentlog.Record{}
	var head bytes.Buffer
	if err := writeJSON(&head, rep); err != nil {
		return err
	}
	const empty = "{\n  \"sessions\": [],"
	if len(recs) == 0 || !bytes.HasPrefix(head.Bytes(), []byte(empty)) {
		if len(recs) > 0 { // the report's shape changed: one encoder, as writeJSON
			rep.Sessions = recs
			return writeJSON(w, rep)
		}
		_, err := w.Write(head.Bytes())
		return err
	}
	parts := make([][]byte, min(runtime.GOMAXPROCS(0), len(recs)))
	per := (len(recs) + len(parts) - 1) / len(parts)
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			var dst, scratch []byte
			for i := p * per; i < min(len(recs), (p+1)*per); i++ {
				one, ok := appendRecordJSON(scratch[:0], &recs[i])
				scratch = one[:0]
				if !ok {
					if one, errs[p] = jstext.Marshal(&recs[i]); errs[p] != nil {
						return
					}
				}
				if i > p*per {
					dst = append(dst, ",\n    "...)
				}
				dst = appendIndented(dst, one, "    ")
			}
			parts[p] = dst
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // the first, as the one encoder of writeJSON would stop at
		}
	}
	// The parts are written as they are, not joined into one more copy of the report.
	pieces := make([][]byte, 0, len(parts)+2)
	pieces = append(pieces, []byte("{\n  \"sessions\": [\n    "))
	for p := range parts {
		if p > 0 && len(parts[p]) > 0 {
			pieces = append(pieces, []byte(",\n    "))
		}
		pieces = append(pieces, parts[p])
	}
	pieces = append(pieces, []byte("\n  ],"), head.Bytes()[len(empty):])
	for _, b := range pieces {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// appendIndented appends src, a JSON value as the encoder writes it without indent (no whitespace
// outside strings), as json.Indent(dst, src, prefix, "  ") does: the encoder's own indent pass, a
// scanner's state machine run on every byte, was half of the report's time, while here a string is copied
// whole from one search for its closing quote (TestAppendIndentedIsIndent).
func appendIndented(dst, src []byte, prefix string) []byte {
	depth := 0
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, "  "...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			end := i + 1
			for {
				j := bytes.IndexByte(src[end:], '"')
				if j < 0 {
					return append(dst, src[i:]...) // no JSON the encoder writes; copied as it is
				}
				end += j
				// The quote closes the string unless an odd run of backslashes escapes it.
				k := end - 1
				for k > i && src[k] == '\\' {
					k--
				}
				if (end-1-k)%2 == 0 {
					break
				}
				end++
			}
			dst = append(dst, src[i:end+1]...)
			i = end
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1]) // empty: {} and [], as json.Indent writes them
				i++
				continue
			}
			depth++
			newline(depth)
		case '}', ']':
			depth--
			newline(depth)
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// writeNDJSON writes one session (or one group) per line, ready for DuckDB's read_json_auto.
func writeNDJSON(w io.Writer, recs []agentlog.Record, by []group, grouped bool) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	var err error
	if grouped {
		for _, g := range by {
			if err = enc.Encode(g); err != nil {
				return err
			}
		}
	} else {
		for i := range recs {
			if err = enc.Encode(&recs[i]); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

var sessionsCSVHeader = []string{"session_id", "harness", "repo", "project", "start", "end", "duration_s", "calls",
	"input", "output", "cache_read", "cache_write", "cost", "cost_priced", "unpriced_tokens", "models", "tools"}

// writeSessionsCSV writes one session per row; cost is empty when it is null (cost_priced is then what
// the priced calls came to, unpriced_tokens what it leaves out), models and tools are "a;b" and
// "Bash=5;Read=2".
func writeSessionsCSV(w io.Writer, recs []agentlog.Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(sessionsCSVHeader); err != nil {
		return err
	}
	for i := range recs {
		r := &recs[i]
		row := []string{r.SessionID, r.Harness, deref(r.Repo), deref(r.Project), r.Start.UTC().Format(time.RFC3339Nano),
			r.End.UTC().Format(time.RFC3339Nano), strconv.FormatFloat(r.End.Sub(r.Start).Seconds(), 'f', 3, 64),
			strconv.Itoa(r.Calls), i64(r.Tokens.Input), i64(r.Tokens.Output), i64(r.Tokens.CacheRead), i64(r.Tokens.CacheWrite),
			optFloat(r.Cost.Total), strconv.FormatFloat(r.Cost.Priced, 'f', -1, 64), i64(r.Cost.UnpricedTokens),
			strings.Join(modelNames(r), ";"), toolList(r.Tools, ";", "=", 0)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeGroupsCSV(w io.Writer, by string, gs []group) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{by, "sessions", "calls", "input", "output", "cache_read", "cache_write", "cost", "cost_priced", "unpriced_tokens"}); err != nil {
		return err
	}
	for _, g := range gs {
		row := []string{g.Key, strconv.Itoa(g.Sessions), strconv.Itoa(g.Calls), i64(g.Tokens.Input), i64(g.Tokens.Output),
			i64(g.Tokens.CacheRead), i64(g.Tokens.CacheWrite), optFloat(g.Cost), strconv.FormatFloat(g.Priced, 'f', -1, 64), i64(g.UnpricedTokens)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeSessionsTable(w io.Writer, recs []agentlog.Record, loc *time.Location) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "START\tHARNESS\tPROJECT\tDURATION\tCALLS\tTOKENS\tCOST\tJUDGE\tTOOLS\t")
	for i := range recs {
		r := &recs[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", r.Start.In(loc).Format("2006-01-02 15:04"), r.Harness,
			orDash(deref(r.Project)), duration(r.End.Sub(r.Start)), r.Calls, tokens(r.Tokens.Total()),
			usd(r.Cost.Total, r.Cost.Priced), judgeSpend(r.Judge), toolList(r.Tools, ", ", " ", 3))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := totals(recs)
	fmt.Fprintf(&buf, "\n%d sessions, %d calls, %s tokens (input %s, output %s, cache read %s, cache write %s), cost %s\n",
		t.Sessions, t.Calls, tokens(t.Tokens.Total()), tokens(t.Tokens.Input), tokens(t.Tokens.Output),
		tokens(t.Tokens.CacheRead), tokens(t.Tokens.CacheWrite), usd(t.Cost, t.Priced))
	writeUnpriced(&buf, t)
	_, err := w.Write(trimRight(buf.Bytes()))
	return err
}

func writeGroupsTable(w io.Writer, title string, gs []group, t group) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tSESSIONS\tCALLS\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tCOST\t\n", title)
	for _, g := range append(gs, group{Key: "total", Sessions: t.Sessions, Calls: t.Calls, Tokens: t.Tokens, Cost: t.Cost, Priced: t.Priced}) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", g.Key, g.Sessions, g.Calls, tokens(g.Tokens.Input),
			tokens(g.Tokens.Output), tokens(g.Tokens.CacheRead), tokens(g.Tokens.CacheWrite), usd(g.Cost, g.Priced))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeUnpriced(&buf, t)
	_, err := w.Write(trimRight(buf.Bytes()))
	return err
}

// judgeSpend is what saverd's own forks spent on a session, as the pane prints the judge (four decimals
// under a cent: a judge fork is often a fraction of one): "-" when none ran, "?" when one had no price.
func judgeSpend(j *agentlog.ForkSpend) string {
	switch {
	case j == nil:
		return "-"
	case j.Cost == nil:
		return "?"
	}
	return view.USD(*j.Cost)
}

// writeUnpriced explains the "+" of a cost that leaves calls out.
func writeUnpriced(buf *bytes.Buffer, t group) {
	if len(t.Unpriced) > 0 {
		fmt.Fprintf(buf, "+ or ?: no price for %s: those calls are not in the cost (see --prices)\n", strings.Join(t.Unpriced, ", "))
	}
}

func trimRight(b []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		nl := bytes.HasSuffix(line, []byte("\n"))
		out.Write(bytes.TrimRight(line, " \n"))
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// usd is dollars for people; a cost that leaves unpriced calls out is marked "+", and one with no priced
// call at all is "?" ("$0.00+" read as free). A cost under half a cent is "<$0.01", so a cheap model's
// session does not read as free either.
func usd(total *float64, priced float64) string {
	switch {
	case total == nil && priced == 0:
		return "?"
	case total == nil:
		return cents(priced) + "+"
	}
	return cents(*total)
}

func cents(v float64) string {
	if v > 0 && v < 0.005 {
		return "<$0.01"
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// tokens is a token count for people: 950, 12.3k, 4.56M.
func tokens(n int64) string {
	switch {
	case n >= 1_000_000_000:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + "B"
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64) + "M"
	case n >= 10_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

func duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

func modelNames(r *agentlog.Record) []string {
	out := make([]string, 0, len(r.Models))
	for m := range r.Models {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// toolList is the tools by count, most used first; limit > 0 keeps that many and marks the rest "…".
func toolList(tools map[string]int, sep, eq string, limit int) string {
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if tools[names[i]] != tools[names[j]] {
			return tools[names[i]] > tools[names[j]]
		}
		return names[i] < names[j]
	})
	more := false
	if limit > 0 && len(names) > limit {
		names, more = names[:limit], true
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + eq + strconv.Itoa(tools[n])
	}
	s := strings.Join(parts, sep)
	if more {
		s += sep + "…"
	}
	return s
}
