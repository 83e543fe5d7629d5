package bridge

import "testing"

// TestParseStatusLine: the status line input's session, model and window, as Claude Code writes them; a
// window it does not give, or gives below 1, is 0 (not said), and input that is no object is an error.
func TestParseStatusLine(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    StatusLine
		wantErr bool
	}{
		{`{"session_id":"s","model":{"id":"claude-opus-4-5"},"context_window":{"context_window_size":200000}}`, StatusLine{"s", "claude-opus-4-5", 200000}, false},
		{`{"session_id":"s"}`, StatusLine{SessionID: "s"}, false},
		{`{"session_id":"s","context_window":{"context_window_size":-5},"model":null}`, StatusLine{SessionID: "s"}, false},
		{`{"session_id":"s","context_window":{}}`, StatusLine{SessionID: "s"}, false},
		{`[1]`, StatusLine{}, true},
		{`{"session_id":7}`, StatusLine{}, true},
	} {
		got, err := ParseStatusLine([]byte(c.in))
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("ParseStatusLine(%s) = %+v, %v; want %+v (error %v)", c.in, got, err, c.want, c.wantErr)
		}
	}
}
