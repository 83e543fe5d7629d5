package judge

import (
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The PROCESS digest: what the person typed, the shape of the launched work, the
// cadence, the artifacts and the interventions, at most DigestMaxChars.

type sectionName int

const (
	secAsks sectionName = iota
	secShape
	secCadence
	secArtifacts
	secInterventions
)

// section is one digest section; pinned is its leading lines a cut never drops.
type section struct {
	name        sectionName
	header      string
	lines       []string
	oldestFirst bool
	pinned      int
}

// cutOrder is the sections cut first when the digest runs past its cap: the old asks, then the small
// sections; Shape is the last resort.
var cutOrder = []sectionName{secAsks, secArtifacts, secInterventions, secCadence, secShape}

const (
	cutMarkMax = 24     // room for the `~ ×N lines cut` line a cut section ends with
	listMax    = 10     // paths, re-reads and gaps each section names before it stops
	rereadMin  = 3      // reads of one path before it is named a re-read
	gapMinMs   = 60_000 // a wait shorter than a minute before the next prompt is the person reading
)

func render(sections []section) string {
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.header)
		if len(s.lines) == 0 {
			b.WriteString("\n" + none)
		}
		for _, l := range s.lines {
			b.WriteByte('\n')
			b.WriteString(l)
		}
	}
	return b.String()
}

// cutSection drops enough lines to give back over characters: the oldest first (after the pinned) where
// order is time, else the last; a `~ ×N lines cut` mark takes their place.
func cutSection(s section, over int) section {
	pinned := s.lines[:min(s.pinned, len(s.lines))]
	rest := append([]string{}, s.lines[len(pinned):]...)
	if !s.oldestFirst {
		reverse(rest)
	}
	removed, n := 0, 0
	for n < len(rest) && removed < over+cutMarkMax {
		removed += jstext.Len16(rest[n]) + 1
		n++
	}
	rest = rest[n:]
	mark := "~ ×" + inum(n) + " lines cut"
	lines := append([]string{}, pinned...)
	if s.oldestFirst {
		lines = append(append(lines, mark), rest...)
	} else {
		reverse(rest)
		lines = append(append(lines, rest...), mark)
	}
	s.lines = lines
	return s
}

func reverse(xs []string) {
	for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
		xs[i], xs[j] = xs[j], xs[i]
	}
}

const (
	asksHeader          = "## ASKS — what the person typed, oldest first: `turn:<n> | +<min>m since the first | what they typed`, then `| pace` when it complains about pace"
	shapeHeader         = "## SHAPE — one row per workflow run: `run:<id> | name | declared phases | loops | Σmin | Σtok | edits | merges · checks after | launch turn`, then per phase `phase | ×loops | models | min | tok | edits | outcomes | agent handles`; then agents outside any run, and every role by model"
	cadenceHeader       = "## CADENCE — turns, span, compactions, pace complaints; check runs, merges, merges a check followed, commits; the longest waits for the person"
	artifactsHeader     = "## ARTIFACTS — edits, the paths written most, paths re-read, memory files by name and path"
	interventionsHeader = "## INTERVENTIONS — process findings already raised and cards decided `id | open or decision @ turn | sent ×N`, a process finding's words after it; then what is waiting and what was sent"
)

// Digest is the PROCESS digest, at most DigestMaxChars: over the cap the oldest asks (never the first)
// go first, then the small sections, and Shape last. aliases is the loop naming the prompt is built
// with (nil: Aliases(s)), so a cited `agent:<alias>` reads back to its loop.
func Digest(s *state.State, aliases map[string]string) string {
	if aliases == nil {
		aliases = Aliases(s)
	}
	d := newDigest(s, aliases)
	sections := []section{
		{name: secAsks, header: asksHeader, lines: askLines(s), oldestFirst: true, pinned: 1},
		{name: secShape, header: shapeHeader, lines: d.shapeLines(), oldestFirst: true},
		{name: secCadence, header: cadenceHeader, lines: cadenceLines(s)},
		{name: secArtifacts, header: artifactsHeader, lines: artifactLines(s)},
		{name: secInterventions, header: interventionsHeader, lines: interventionLines(s)},
	}
	// The digest's lines print a payload's text (a path, a run's name, an ask) as it came: each is made one
	// line before it is measured against the cap.
	for i := range sections {
		for j, l := range sections[i].lines {
			sections[i].lines[j] = escaped(l)
		}
	}
	out := render(sections)
	for _, name := range cutOrder {
		over := jstext.Len16(out) - state.DigestMaxChars
		if over <= 0 {
			break
		}
		for i := range sections {
			if sections[i].name == name {
				sections[i] = cutSection(sections[i], over)
			}
		}
		out = render(sections)
	}
	return jstext.Cut16(out, state.DigestMaxChars)
}
