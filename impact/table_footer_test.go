package impact

import "testing"

// TestWarningsFooter: the table's last line is worded for the warnings it follows: with no session
// counted they say why, and only with sessions do they name what the figures leave out.
func TestWarningsFooter(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, sessions int
		want        string
	}{
		{"no warning", 0, 3, ""},
		{"no warning, no session", 0, 0, ""},
		{"no sessions found", 1, 0, "1 warning (on stderr) says why no session is counted here"},
		{"two, no session", 2, 0, "2 warnings (on stderr) say why no session is counted here"},
		{"a bad repo beside sessions", 1, 4, "1 warning: what they name (a repo, a file, a line, a price) is left out of these figures"},
		{"three beside sessions", 3, 1, "3 warnings: what they name (a repo, a file, a line, a price) is left out of these figures"},
	} {
		if got := warningsFooter(tc.n, tc.sessions); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
