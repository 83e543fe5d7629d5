package judge

import "testing"

// TestDropNoteInThePersonsWords: the note a check's toast carries names why each finding was dropped in
// words the person who asked can read, while the drop lines keep the seed's words for /saver debug.
func TestDropNoteInThePersonsWords(t *testing.T) {
	cases := []struct {
		name    string
		dropped []string
		want    string
	}{
		{"none", nil, ""},
		{"a note on a kept finding is no drop", []string{"reading:x: kind: 130 chars, over 120"}, ""},
		{"ignored earlier", []string{"reading:reread: kept this session"},
			"1 finding dropped: reading:reread was ignored earlier this session"},
		{"past the cap", []string{"reading:a: over MAX_FINDINGS (5)", "#7: over MAX_BEHAVIORAL_FINDINGS (3)"},
			"2 findings dropped: reading:a is past the 5 findings one check keeps; #7 is past the 3 findings without a call signature one check keeps"},
		{"rows missing and a reason", []string{"reading:a: evidence r999 not in the ledger", "reading:b: alternative is empty"},
			"2 findings dropped: 1 cites row r999 that the ledger does not have; reading:b: alternative is empty"},
	}
	for _, c := range cases {
		if got := DropNote(c.dropped); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
