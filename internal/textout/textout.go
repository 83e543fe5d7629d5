// Package textout is how saverd's commands print for people and for scripts: JSON indented as the reports
// write it, a table's lines without the blanks tabwriter leaves, token counts, dollars, durations and
// plurals, and whether an output is a terminal (which picks a table over JSON).
package textout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// WriteJSON writes v indented two spaces, without HTML escaping, and a newline: every command's JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// IsTerminal reports whether w is a terminal: a character device that is not /dev/null (redirecting to
// /dev/null should not switch to the table).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// TrimRight is b with the blanks at each line's end taken off (tabwriter pads the last column too).
func TrimRight(b []byte) []byte {
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

// Deref is *p, or "" for nil.
func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// OrDash is s, or "-" for an empty cell.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// USD is dollars for people; a cost that leaves unpriced calls out is marked "+", and one with no priced
// call at all is "?" ("$0.00+" read as free). A cost under half a cent is "<$0.01", so a cheap model's
// session does not read as free either.
func USD(total *float64, priced float64) string {
	switch {
	case total == nil && priced == 0:
		return "?"
	case total == nil:
		return Cents(priced) + "+"
	}
	return Cents(*total)
}

// Cents is v dollars to the cent, "<$0.01" for a positive v under half a cent. A negative v (a net
// saving that cost more than it saved) has its sign before the dollar, a minus sign, as the pane writes
// it: "−$0.05", "−<$0.01".
func Cents(v float64) string {
	if v < 0 {
		return Negative(Cents(-v))
	}
	if v > 0 && v < 0.005 {
		return "<$0.01"
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// Negative is a figure written for its magnitude (a dollar amount) made negative: the minus sign (U+2212)
// in front, the one every figure saverd shows a person carries.
func Negative(magnitude string) string { return "−" + magnitude }

// Tokens is a token count for people: 950, 12.3k, 4.56M.
func Tokens(n int64) string {
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

// Duration is d for people: 42s, 17m, 2h05m.
func Duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Plural is n and its noun, in the plural unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
