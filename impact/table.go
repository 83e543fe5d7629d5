package impact

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/saverd/saverd/internal/textout"
)

// WriteTable prints the report's summary as aligned columns for people:
// one block per repo, one per harness, then the session totals.
func (r *Report) WriteTable(w io.Writer) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	writeGroups(tw, "REPO", r.Summary.ByRepo)
	fmt.Fprintln(tw)
	writeGroups(tw, "HARNESS", r.Summary.ByHarness)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Records) > 0 {
		buf.WriteByte('\n')
		if err := writeSessionSection(&buf, r.Records); err != nil {
			return err
		}
	}
	s := r.Summary
	fmt.Fprintf(&buf, "\nsessions: %d, linked: %d, pending: %d, unlinked cost: %s\n",
		s.SessionsTotal, s.Linked, s.Pending, money(s.UnlinkedCost))
	if f := warningsFooter(len(r.Warnings), s.SessionsTotal); f != "" {
		buf.WriteString(f + "\n")
	}
	_, err := w.Write(textout.TrimRight(buf.Bytes()))
	return err
}

// warningsFooter is the table's last line when the warnings (n, on stderr) went before it: the table
// alone must not read as the whole story. With no session counted they say why there is nothing to
// count, and no figure leaves anything out.
func warningsFooter(n, sessions int) string {
	switch {
	case n == 0:
		return ""
	case sessions == 0 && n == 1:
		return "1 warning (on stderr) says why no session is counted here"
	case sessions == 0:
		return textout.Plural(n, "warning") + " (on stderr) say why no session is counted here"
	}
	return textout.Plural(n, "warning") + ": what they name (a repo, a file, a line, a price) is left out of these figures"
}

// writeSessionSection lists who produced what: one line per record (a
// session in a repo) with its cost share, and under it each commit's short
// sha and stats — never its subject, which may say more than a report should.
func writeSessionSection(w io.Writer, recs []Record) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "SESSION\tHARNESS\tREPO\tLINK\tCOST\tCOMMITS\n")
	for i := range recs {
		r := &recs[i]
		link := r.Link
		if r.LinkP == nil {
			link += " (pending)"
		}
		lead := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t", r.SessionID, r.Harness, r.RepoLabel, link, money(r.Cost))
		if len(r.Details) == 0 {
			fmt.Fprintln(tw, lead+"-")
		}
		for j, c := range r.Details {
			if j > 0 {
				lead = "\t\t\t\t\t"
			}
			note := ""
			switch {
			case c.RevertOf != "":
				note = ", a revert"
			case c.RevertedBy != "":
				note = ", reverted"
			}
			fmt.Fprintf(tw, "%s%s +%d -%d, %s%s\n", lead, short(c.SHA), c.Added, c.Deleted, textout.Plural(c.Files, "file"), note)
		}
	}
	return tw.Flush()
}

// writeGroups writes one block. Numbers align right; the name column is
// padded to one width so that, aligned right, it reads left-aligned.
func writeGroups(w io.Writer, title string, groups map[string]*Group) {
	keys := make([]string, 0, len(groups))
	width := len(title)
	for k := range groups {
		keys = append(keys, k)
		width = max(width, len(k))
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "%-*s\tCOST\tLINES+\tKEPT\tREVERTED\t$/KEPT\t$/100 LINES\tREVERT RATE\t\n", width, title)
	if len(groups) == 0 {
		fmt.Fprintf(w, "(none linked)\t\t\t\t\t\t\t\t\n")
		return
	}
	for _, k := range keys {
		g := groups[k]
		name := k
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(w, "%-*s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t\n", width, name, money(g.Cost), g.LinesAdded,
			g.CommitsKept, g.CommitsReverted, optMoney(g.CostPerKeptCommit), optMoney(g.CostPer100Lines), percent(g.RevertRate))
	}
}

// WritePendingTable prints the pending subjects with their commits, one
// line per commit under its subject.
func WritePendingTable(w io.Writer, pending []PendingSubject) error {
	if len(pending) == 0 {
		_, err := fmt.Fprintln(w, "no pending commit_link subjects")
		return err
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, p := range pending {
		fmt.Fprintf(tw, "%s\t%s %s–%s, %s, %s\t\n", p.Subject, p.Harness, p.Start, p.End, textout.Plural(p.Calls, "call"), money(p.Cost))
		for _, r := range p.Repos {
			for _, c := range r.Commits {
				fmt.Fprintf(tw, "  %s\t%s %s +%d -%d, %s\t\n", r.RepoLabel, short(c.SHA), c.TS, c.Added, c.Deleted, textout.Plural(c.Files, "file"))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(&buf, "\nanswer with: saverd impact decide SUBJECT --yes P --decisions FILE")
	_, err := w.Write(textout.TrimRight(buf.Bytes()))
	return err
}

// money is dollars for people: cents, or — below a cent — as many places as it takes (at most 6); a
// negative amount as every figure saverd shows writes one (textout.Negative).
func money(x float64) string {
	if x < 0 {
		return textout.Negative(money(-x))
	}
	if x >= 0.01 {
		return "$" + strconv.FormatFloat(x, 'f', 2, 64)
	}
	s := strconv.FormatFloat(x, 'f', 6, 64)
	s = strings.TrimRight(s, "0")
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i < 3 {
		s += strings.Repeat("0", 3-(len(s)-i)) // at least cents
	}
	return "$" + s
}

func optMoney(x *float64) string {
	if x == nil {
		return "-"
	}
	return money(*x)
}

func percent(x *float64) string {
	if x == nil {
		return "-"
	}
	return strconv.FormatFloat(100**x, 'f', 1, 64) + "%"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
