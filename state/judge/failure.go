package judge

import (
	"regexp"
	"strings"

	"github.com/saverd/saverd/state"
)

// What a run's drop lines say when the reply held nothing to weigh: ParseReply and ParseProcessReply
// write them, Unreadable reads them back.
const (
	dropNotJSON  = "reply was not JSON"
	dropNotArray = "findings was not an array"
)

// Unreadable is why a reply could not be weighed at all, in words a person reads, or "" when it was a
// reply (however many of its findings were dropped). dropped is a run's drop lines as the parsers wrote
// them.
func Unreadable(dropped []string) string {
	for _, d := range dropped {
		switch d {
		case dropNotJSON:
			return "the judge answered prose, not JSON"
		case dropNotArray:
			return "the judge's JSON has no findings list"
		}
	}
	return ""
}

// findingDrop is one drop line of a finding: `<label>: <reason>`, the label its id or `#<n>`. Notes on
// a kept finding (`<id>: kind: …`) and on a trimmed sentence (`time: …`) are not drops.
var findingDrop = regexp.MustCompile(`^([a-z-]+:[a-z0-9-]{1,40}|#[0-9]+): (.*)$`)

// missingRow is a handle the ledger does not hold, as handleDrop words it.
var missingRow = regexp.MustCompile(`^evidence (\S+) not in the ledger$`)

// DropNote sums up the findings a reply returned and the run dropped, in words a person reads, or ""
// when none was dropped: `2 findings dropped: they cite rows r999, r1000 that the ledger does not have`.
// Reasons other than a missing row are named with the finding they dropped, at most three of them, in
// the person's words where the drop line keeps the seed's (personReason).
func DropNote(dropped []string) string {
	var missing, other []string
	n := 0
	for _, d := range dropped {
		m := findingDrop.FindStringSubmatch(d)
		if m == nil || strings.HasPrefix(m[2], "kind: ") || strings.HasPrefix(m[2], "alternative: ") {
			continue
		}
		n++
		if row := missingRow.FindStringSubmatch(m[2]); row != nil {
			missing = append(missing, row[1])
			continue
		}
		other = append(other, personDrop(m[1], m[2]))
	}
	if n == 0 {
		return ""
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, citeNote(missing, len(missing) == n))
	}
	for i, o := range other {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, o)
	}
	return plural(n, "finding") + " dropped: " + strings.Join(parts, "; ")
}

// citeNote is the findings (cited rows, one per finding) that cite rows the ledger lacks; all says they
// are every drop, so the sentence can say "they".
func citeNote(rows []string, all bool) string {
	findings := len(rows)
	rows = state.Unique(rows)
	noun := "row " + rows[0]
	if len(rows) > 1 {
		noun = "rows " + strings.Join(rows, ", ")
	}
	verb := " cite "
	if findings == 1 {
		verb = " cites "
	}
	who := inum(findings)
	switch {
	case all && findings == 1:
		who = "it"
	case all:
		who = "they"
	}
	return who + verb + noun + " that the ledger does not have"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return inum(n) + " " + noun + "s"
}

// capDrop is a drop line's reason for a finding past one of a run's caps, as capFindings words it.
var capDrop = regexp.MustCompile(`^over (MAX_FINDINGS|MAX_BEHAVIORAL_FINDINGS) \(([0-9]+)\)$`)

// personDrop is a drop line (its finding's id and reason) as the person who asked for the check reads it.
// The drop lines keep the seed's words for /saver debug and the run reports; there "kept" is
// ContextSaver's name for a behaviour the person ignored, and a cap is the seed's constant. A reason of
// the judge's own words follows the id after a colon.
func personDrop(id, reason string) string {
	if reason == "kept this session" {
		return id + " was ignored earlier this session"
	}
	if m := capDrop.FindStringSubmatch(reason); m != nil {
		if m[1] == "MAX_FINDINGS" {
			return id + " is past the " + m[2] + " findings one check keeps"
		}
		return id + " is past the " + m[2] + " findings without a call signature one check keeps"
	}
	return id + ": " + reason
}
