package intake

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jsonscan"
)

// TestMeasuredHead: the head and length ReadToolResult measures are rowHead's and Len16's of the text,
// and a start the decoded prefix cannot settle is left to the full decoder.
func TestMeasuredHead(t *testing.T) {
	for _, text := range []string{
		"", "ok", strings.Repeat("x", 200), "a\tb\nc\r\nd\x00e\x7ff",
		strings.Repeat("é", 100), strings.Repeat("😀", 50), "x" + strings.Repeat("😀", 50),
		strings.Repeat("\x01", 100) + "tail", strings.Repeat("\u2028€\t", 40),
	} {
		quoted, err := json.Marshal(text)
		if err != nil {
			t.Fatal(err)
		}
		raw := []byte(`{"text":` + string(quoted) + `}`)
		sc := jsonscan.New(raw)
		r, ok := ReadToolResult(&sc)
		if !ok {
			t.Errorf("%q: refused", text)
			continue
		}
		chars, head := r.rowText()
		full := ToolResult{Text: &text}
		if wantChars, wantHead := full.rowText(); chars != wantChars || head != wantHead {
			t.Errorf("%q: %d chars, head %q; want %d, %q", text, chars, head, wantChars, wantHead)
		}
	}
	// A start of control characters longer than the prefix read for the head.
	raw := []byte(`{"text":"` + strings.Repeat(`\u0001`, headRead+1) + `tail"}`)
	sc := jsonscan.New(raw)
	if _, ok := ReadToolResult(&sc); ok {
		t.Errorf("a head past the decoded prefix was taken")
	}
}
