package impact

import (
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// logRecord renders one commit the way logFormat and --numstat print it.
func logRecord(sha string, at time.Time, email, msg, numstat string) string {
	return "\x00\x1e" + sha + "\x00" + strconv.FormatInt(at.Unix(), 10) + "\x00" + email + "\x00" + msg + "\n\x00\n\n" + numstat
}

// TestParseLog reads a synthetic log one byte at a time, so separators and
// fields are cut at every possible point.
func TestParseLog(t *testing.T) {
	win := windows{{at("10:00"), at("11:00")}}
	p := scanParams{
		from:     at("10:00"),
		now:      now,
		local:    map[string]bool{me: true},
		linkable: win.holds,
	}
	log := logRecord("aaaa1111", at("10:10"), "Me@Example.com", "work\n\nCo-authored-by: Codex <noreply@openai.com>",
		"3\t1\ta.go\n-\t-\tlogo.png\n0\t0\told.go => new.go\n") +
		logRecord("bbbb2222", at("10:20"), other, "theirs", "5\t0\tb.go\n") + // not local, no trailer: dropped
		logRecord("cccc3333", at("09:00"), me, "old revert\n\nThis reverts commit AAAA1111.", "") + // before the window
		logRecord("dddd4444", now.Add(time.Minute), me, "This reverts commit bbbb2222", "") + // after now: ignored
		logRecord("eeee5555", at("10:30"), me, "This reverts commit abc (too short)\nThis reverts commit eeee", "")
	var n int
	p.count = func() { n++ }
	got, err := parseLog(iotest.OneByteReader(strings.NewReader(log)), p)
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Errorf("counted %d records, want 5", n)
	}
	if len(got.commits) != 2 {
		t.Fatalf("commits = %+v", got.commits)
	}
	a := got.commits[0]
	if a.sha != "aaaa1111" || !a.local || a.agent != "codex" || a.files != 3 || a.added != 3 || a.deleted != 1 ||
		a.author != hashEmail([]byte("Me@Example.com")) || !a.ts.Equal(at("10:10")) {
		t.Errorf("first commit = %+v", a)
	}
	if e := got.commits[1]; e.sha != "eeee5555" || e.revertOf != "eeee" {
		t.Errorf("second commit = %+v", e)
	}
	want := map[string]string{"aaaa1111": "cccc3333", "eeee": "eeee5555"}
	if len(got.reverts) != len(want) || got.reverts["aaaa1111"] != "cccc3333" || got.reverts["eeee"] != "eeee5555" {
		t.Errorf("reverts = %v, want %v", got.reverts, want)
	}
}

func TestParseLogMalformed(t *testing.T) {
	p := scanParams{from: at("10:00"), now: now, linkable: func(time.Time) bool { return true }}
	for _, log := range []string{
		"\x00\x1eabc\x00notatime\x00e\x00m\x00",
		"\x00\x1eabc\x00missing fields",
		logRecord("abcd", at("10:10"), me, "m"+claude, "x\ty\tz\n"),
		logRecord("abcd", at("10:10"), me, "m"+claude, "no tabs\n"),
	} {
		if _, err := parseLog(strings.NewReader(log), p); err == nil {
			t.Errorf("parseLog(%q) succeeded", log)
		}
	}
	if got, err := parseLog(strings.NewReader(""), p); err != nil || len(got.commits) != 0 {
		t.Errorf("empty log: %v, %v", got, err)
	}
}

func TestWindows(t *testing.T) {
	s := func(start, end string) member {
		return member{s: &sess{session: &session{Start: at(start), End: at(end)}}}
	}
	w := windowsOf([]member{s("14:00", "14:30"), s("10:00", "11:00"), s("11:20", "12:00")})
	if len(w) != 2 || !w.earliest().Equal(at("09:55")) {
		t.Fatalf("windows = %v", w)
	}
	for _, tc := range []struct {
		ts   time.Time
		want bool
	}{
		{at("09:55").Add(-time.Second), false},
		{at("09:55"), true},
		{at("12:30"), true},
		{at("12:30").Add(time.Second), false},
		{at("13:55"), true},
		{at("15:00"), true},
		{at("15:01"), false},
	} {
		if got := w.holds(tc.ts); got != tc.want {
			t.Errorf("holds(%s) = %v, want %v", tc.ts.Format("15:04:05"), got, tc.want)
		}
	}
}

// TestRevertedSHAsWholeWords: a sha named after "This reverts commit" ends where the word does; prose
// that starts with hex letters names nothing.
func TestRevertedSHAsWholeWords(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"this reverts commit 1234abcd.", "1234abcd"},
		{"this reverts commit 1234abcd, and more", "1234abcd"},
		{"this reverts commit 1234abcd\n", "1234abcd"},
		{"this reverts commit 1234abcd", "1234abcd"},
		{"this reverts commit deadline handling from last week", ""},
		{"this reverts commit cafe_bar", ""},
		{"this reverts commit beefé", ""},
		{"this reverts commit deadbeefz and this reverts commit 0badc0de.", "0badc0de"},
	} {
		reverts := map[string]string{}
		if got := revertedSHAs([]byte(c.msg), "r", reverts); got != c.want {
			t.Errorf("revertedSHAs(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
