package rpc

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBadContentLengthIsAnsweredOnce: one bad Content-Length used to leave the stream out of step with
// its headers, so that every later request was read as junk and never handled. Each bad header is
// answered once, the stream picks up again at the next header, and the requests after it are answered.
func TestBadContentLengthIsAnsweredOnce(t *testing.T) {
	body := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"echo","params":[%d]}`, id, id)
	}
	framed := func(id int) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body(id)), body(id)) }
	tests := []struct {
		name  string
		bad   string // the bad frame, sent before requests 2 and 3
		msg   string
		first int // the first request answered after it
	}{
		{"too short", "Content-Length: 10\r\n\r\n" + body(1), "parse error", 2},
		// A length longer than its body eats into the next frame: the next header it swallowed is read
		// again, so only the bad frame is lost.
		{"too long", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body(1))+30, body(1)), "parse error", 2},
		{"negative", "Content-Length: -5\r\n\r\n" + body(1), "invalid Content-Length", 2},
		{"zero", "Content-Length: 0\r\n\r\n" + body(1), "empty body", 2},
		{"not a number", "Content-Length: ten\r\n\r\n" + body(1), "invalid Content-Length", 2},
		{"over int64", "Content-Length: 99999999999999999999\r\n\r\n" + body(1), "invalid Content-Length", 2},
		{"two conflicting", "Content-Length: 5\r\nContent-Length: 6\r\n\r\n" + body(1), "conflicting Content-Length", 2},
		{"over the frame cap", "Content-Length: 1000000000000\r\n\r\n" + body(1), "exceeds", 2},
		// No blank line after the header: its body is read as a header line, and the next frame's header
		// glued to the body's end used to be skipped with it, so the next request was lost too.
		{"no blank line after the header", fmt.Sprintf("Content-Length: %d\r\n%s", len(body(1)), body(1)), "no blank line after the headers", 2},
		{"no blank line, a second header first", fmt.Sprintf("Content-Length: %d\r\nContent-Type: x\r\n%s", len(body(1)), body(1)), "no blank line after the headers", 2},
		{"a pretty-printed body after a bad header", "Content-Length: x\r\n\r\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1\n}\n", "invalid Content-Length", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHost(t, Options{Framing: FramingHeader, MaxFrameSize: 1 << 20}, echo)
			h.send(tt.bad + framed(2) + framed(3))
			h.expectError("null", CodeParseError, tt.msg)
			for id := tt.first; id <= 3; id++ {
				h.expectResult(fmt.Sprint(id), fmt.Sprintf("[%d]", id))
			}
			h.noFrame(50 * time.Millisecond)
		})
	}
}

// TestNoBlankLineIsAnsweredAtOnce: a header whose body follows with no blank line is answered as soon as
// the body begins (its sender may wait for that answer before sending more), and the next request, sent
// only after the answer, is answered too.
func TestNoBlankLineIsAnsweredAtOnce(t *testing.T) {
	h := startHost(t, Options{Framing: FramingHeader}, echo)
	bad := `{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}`
	h.send(fmt.Sprintf("Content-Length: %d\r\n%s", len(bad), bad))
	h.expectError("null", CodeParseError, "no blank line after the headers")
	h.sendHeader(`{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}`)
	h.expectResult("2", "[2]")
}

// TestOverCapLengthDoesNotSwallowTheStream: a Content-Length of 10^12 was read (and discarded) to its
// end, so nothing after it was ever answered; it is refused as soon as its header is read.
func TestOverCapLengthDoesNotSwallowTheStream(t *testing.T) {
	h := startHost(t, Options{Framing: FramingHeader}, echo)
	h.send("Content-Length: 1000000000000\r\n\r\n")
	h.expectError("null", CodeParseError, "frame of 1000000000000 bytes exceeds")
	h.sendHeader(`{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}`)
	h.expectResult("1", "[1]")
}

// TestResyncKeepsOnlyTheEndOfALongLine: junk longer than a header line may be is skipped without
// being held, and the header that ends it still starts the next frame.
func TestResyncKeepsOnlyTheEndOfALongLine(t *testing.T) {
	junk := strings.Repeat("j", 3*maxHeaderLine)
	input := "Content-Length: x\r\n\r\n" + junk + "Content-Length: 2\r\n\r\n{}"
	frames, _, _ := readAll(t, input, FramingHeader, DefaultMaxFrameSize)
	if len(frames) != 2 || frames[0].bad == "" || frames[1].bad != "" || string(frames[1].data) != "{}" {
		t.Fatalf("frames %+v", frames)
	}
}
