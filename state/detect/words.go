package detect

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// How a detector's finding is worded: the judge's shapes (protocol.md, "model.fork"; state/judge), so
// the pane draws it as it draws a judge's card.

// slugMax is the longest slug an id may carry (the judge's `<category>:<kebab-slug, at most 40>`).
const slugMax = 40

// idOf is `<category>:<prefix>-<slug of text>`: lower-case letters and digits, any run of other
// characters one '-'. A slug cut to fit ends in a short hash of the whole text, so two commands that
// share a long start keep two ids; with a unique text (a file's whole path, when text is its base
// name) the hash is of that, always, so two files of one name keep two ids as well.
func idOf(category state.Category, prefix, text, unique string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(text) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
			continue
		}
		dash = true
	}
	slug := prefix
	if b.Len() > 0 {
		slug += "-" + b.String()
	}
	if unique == "" && len(slug) <= slugMax {
		return string(category) + ":" + slug
	}
	if unique == "" {
		unique = text
	}
	h := fnv.New32a()
	h.Write([]byte(unique))
	sum := strconv.FormatUint(uint64(h.Sum32()), 36)
	slug = strings.TrimRight(slug[:min(len(slug), slugMax-len(sum)-1)], "-") + "-" + sum
	return string(category) + ":" + slug
}

// code quotes a command or a path for a sentence, cut to n characters on a whole character.
func code(s string, n int) string { return "`" + jstext.Fit(jstext.CollapseWs(s), n) + "`" }

// handles is the rows' handles as the judge cites them (r<seq>), joined for a sentence.
func (t *timeline) handles(idx []int) string {
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = "r" + strconv.Itoa(t.rows[k].Seq)
	}
	return strings.Join(out, ", ")
}

// turnsOf names the turns the rows ran in: "turn 3", "turns 3 and 5", "turns 3, 5 and 8".
func (t *timeline) turnsOf(idx []int) string {
	var turns []int
	for _, k := range idx {
		if n := t.rows[k].Turn; !slices.Contains(turns, n) {
			turns = append(turns, n)
		}
	}
	words := make([]string, len(turns))
	for i, n := range turns {
		words[i] = strconv.Itoa(n)
	}
	if len(words) == 1 {
		return "turn " + words[0]
	}
	return "turns " + strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// took says what the waste took, in the words the pane uses.
func took(c Cost) string {
	parts := []string{}
	if c.Ms > 0 {
		parts = append(parts, jstext.Duration(float64(c.Ms)))
	}
	if c.Chars > 0 || len(parts) == 0 {
		parts = append(parts, jstext.Kilo(float64(c.Chars))+" chars of context")
	}
	return strings.Join(parts, " and ")
}

// times is "once", "twice" or "N times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// calls is "one call" or "N calls".
func calls(n int) string {
	if n == 1 {
		return "one call"
	}
	return strconv.Itoa(n) + " calls"
}

// finding assembles one finding; evidence is the cited rows, waste the rows whose cost is the waste.
func (t *timeline) finding(d Detector, id string, category state.Category, kind, why, alternative string,
	confidence float64, sig *state.Signature, evidence, waste []int) Finding {
	return Finding{
		Finding: state.Finding{
			ID: id, Category: category, Kind: jstext.Fit(kind, state.KindMax), Evidence: t.ids(evidence),
			Signature: sig, Why: why, Alternative: jstext.Fit(alternative, state.AlternativeMax), Confidence: confidence,
		},
		Detector: d,
		Waste:    t.ids(waste),
		Cost:     t.costOf(waste),
	}
}
