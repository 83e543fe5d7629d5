package jsonscan

import "testing"

func TestFoldsTo(t *testing.T) {
	names := []string{"sessionId", "at", "params"}
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"sessionId", true},
		{"SESSIONID", true},
		{"sessionid", true},
		{"AT", true},
		{"Params", true},
		{"parAms", true},
		{"param", false},
		{"sessionIdx", false},
		{"a@", false},     // '@' | 0x20 is '`': a letter test, not the fold, must decide
		{"\u212at", true}, // a Kelvin sign: not ASCII, so the full decoder decides
		{"", false},
	} {
		if got := FoldsTo([]byte(tc.key), names); got != tc.want {
			t.Errorf("FoldsTo(%q) = %v, want %v", tc.key, got, tc.want)
		}
	}
}

func TestOnce(t *testing.T) {
	var seen bool
	if !Once(&seen) || Once(&seen) || !seen {
		t.Fatal("Once: want true the first time, false after")
	}
}
