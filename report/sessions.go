package report

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
	"github.com/saverd/saverd/internal/textout"
	"github.com/saverd/saverd/state/view"
)

// sessionsJSON is `saverd sessions --format json`.
type sessionsJSON struct {
	Sessions []agentlog.Record `json:"sessions"`
	By       []Group           `json:"by,omitempty"`
	Totals   Group             `json:"totals"`
	Warnings []string          `json:"warnings"`
}

// Sessions is what `saverd sessions` writes: the records the filter kept and the warnings of their
// reading, one row per session or, By a grouping, per group, with the totals.
type Sessions struct {
	Records  []agentlog.Record
	Warnings []string
	By       string         // day, week, month, model, project or harness; "" for one row per session
	Loc      *time.Location // the zone of days, weeks and months, and of the table's times
}

// Write writes the report in format: table, json, ndjson or csv.
func (s Sessions) Write(w io.Writer, format string) error {
	recs, warn := s.Records, s.Warnings
	if recs == nil {
		recs = []agentlog.Record{}
	}
	if warn == nil {
		warn = []string{}
	}
	var by []Group
	if s.By != "" {
		by = By(recs, s.By, s.Loc)
	}
	switch format {
	case "json":
		return writeSessionsJSON(w, sessionsJSON{Sessions: recs, By: by, Totals: Totals(recs), Warnings: warn})
	case "ndjson":
		return writeNDJSON(w, recs, by, s.By != "")
	case "csv":
		if s.By != "" {
			return writeGroupsCSV(w, s.By, by)
		}
		return writeSessionsCSV(w, recs)
	}
	if s.By != "" {
		return writeGroupsTable(w, strings.ToUpper(s.By), by, Totals(recs))
	}
	return writeSessionsTable(w, recs, s.Loc)
}

// writeSessionsJSON writes rep as textout.WriteJSON does, byte for byte, with the sessions encoded in
// parallel: thousands of sessions took one encoder a twentieth of `saverd sessions`, on one core, after
// the reading. Each session is encoded at its depth in the report (its lines indented four spaces), and
// the array is put where the report encoded without sessions has its empty one. BenchmarkSessionsJSON
// holds it beside encoding/json's indented encoder, which writes the same bytes.
func writeSessionsJSON(w io.Writer, rep sessionsJSON) error {
	recs := rep.Sessions
	rep.Sessions = []agentlog.Record{}
	var head bytes.Buffer
	if err := textout.WriteJSON(&head, rep); err != nil {
		return err
	}
	const empty = "{\n  \"sessions\": [],"
	if len(recs) == 0 || !bytes.HasPrefix(head.Bytes(), []byte(empty)) {
		if len(recs) > 0 { // the report's shape changed: one encoder, as writeJSON
			rep.Sessions = recs
			return textout.WriteJSON(w, rep)
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
func writeNDJSON(w io.Writer, recs []agentlog.Record, by []Group, grouped bool) error {
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
	"input", "output", "cache_read", "cache_write", "cost", "cost_priced", "unpriced_tokens", "models", "tools",
	"judge_forks", "judge_tokens", "judge_cost"}

// writeSessionsCSV writes one session per row; cost is empty when it is null (cost_priced is then what
// the priced calls came to, unpriced_tokens what it leaves out), models and tools are "a;b" and
// "Bash=5;Read=2". The judge's columns, last so that a query written for the earlier columns still reads
// them, are what saverd's own forks spent on the session (the table's JUDGE): 0 forks, 0 tokens and an
// empty cost when none ran, an empty cost when a fork's model has no price.
func writeSessionsCSV(w io.Writer, recs []agentlog.Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(sessionsCSVHeader); err != nil {
		return err
	}
	for i := range recs {
		r := &recs[i]
		row := []string{r.SessionID, r.Harness, textout.Deref(r.Repo), textout.Deref(r.Project), r.Start.UTC().Format(time.RFC3339Nano),
			r.End.UTC().Format(time.RFC3339Nano), strconv.FormatFloat(r.End.Sub(r.Start).Seconds(), 'f', 3, 64),
			strconv.Itoa(r.Calls), i64(r.Tokens.Input), i64(r.Tokens.Output), i64(r.Tokens.CacheRead), i64(r.Tokens.CacheWrite),
			optFloat(r.Cost.Total), strconv.FormatFloat(r.Cost.Priced, 'f', -1, 64), i64(r.Cost.UnpricedTokens),
			strings.Join(modelNames(r), ";"), toolList(r.Tools, ";", "=", 0)}
		row = append(row, judgeColumns(r.Judge)...)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeGroupsCSV(w io.Writer, by string, gs []Group) error {
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
			textout.OrDash(textout.Deref(r.Project)), textout.Duration(r.End.Sub(r.Start)), r.Calls, textout.Tokens(r.Tokens.Total()),
			textout.USD(r.Cost.Total, r.Cost.Priced), judgeSpend(r.Judge), toolList(r.Tools, ", ", " ", 3))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := Totals(recs)
	fmt.Fprintf(&buf, "\n%s, %s, %s tokens (input %s, output %s, cache read %s, cache write %s), cost %s\n",
		textout.Plural(t.Sessions, "session"), textout.Plural(t.Calls, "call"), textout.Tokens(t.Tokens.Total()), textout.Tokens(t.Tokens.Input), textout.Tokens(t.Tokens.Output),
		textout.Tokens(t.Tokens.CacheRead), textout.Tokens(t.Tokens.CacheWrite), textout.USD(t.Cost, t.Priced))
	writeUnpriced(&buf, t)
	_, err := w.Write(textout.TrimRight(buf.Bytes()))
	return err
}

func writeGroupsTable(w io.Writer, title string, gs []Group, t Group) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tSESSIONS\tCALLS\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tCOST\t\n", title)
	for _, g := range append(gs, Group{Key: "total", Sessions: t.Sessions, Calls: t.Calls, Tokens: t.Tokens, Cost: t.Cost, Priced: t.Priced}) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", g.Key, g.Sessions, g.Calls, textout.Tokens(g.Tokens.Input),
			textout.Tokens(g.Tokens.Output), textout.Tokens(g.Tokens.CacheRead), textout.Tokens(g.Tokens.CacheWrite), textout.USD(g.Cost, g.Priced))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeUnpriced(&buf, t)
	_, err := w.Write(textout.TrimRight(buf.Bytes()))
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

// judgeColumns are the csv's judge_forks, judge_tokens and judge_cost of one session.
func judgeColumns(j *agentlog.ForkSpend) []string {
	if j == nil {
		return []string{"0", "0", ""}
	}
	return []string{strconv.Itoa(j.Forks), i64(j.Tokens.Total()), optFloat(j.Cost)}
}

// writeUnpriced explains the "+" of a cost that leaves calls out.
func writeUnpriced(buf *bytes.Buffer, t Group) {
	if len(t.Unpriced) > 0 {
		fmt.Fprintf(buf, "+ or ?: no price for %s: those calls are not in the cost (see --prices)\n", strings.Join(t.Unpriced, ", "))
	}
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
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
