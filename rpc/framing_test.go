package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// readAll splits input into frames the way the stream's pump does.
func readAll(t *testing.T, input string, f Framing, maxFrame int) (frames []frame, mode Framing, end error) {
	t.Helper()
	fr := newFrameReader(strings.NewReader(input), f, maxFrame)
	for range 100 {
		fm := fr.next()
		if fm.err != nil {
			return frames, fr.framing(), fm.err
		}
		if fm.borrowed { // lent until the next read, and these are kept past it
			fm.data, fm.borrowed = bytes.Clone(fm.data), false
		}
		frames = append(frames, fm)
	}
	t.Fatal("frame reader never ended")
	return nil, "", nil
}

func TestFrameReader(t *testing.T) {
	type want struct {
		data string
		bad  string // substring; "" for a good frame
	}
	tests := []struct {
		name    string
		framing Framing
		max     int
		input   string
		mode    Framing
		want    []want
		end     error
	}{
		{name: "ndjson lines", framing: FramingAuto, input: "{\"a\":1}\n\n  \n[2]\r\n", mode: FramingNDJSON,
			want: []want{{data: `{"a":1}`}, {data: `[2]`}}, end: io.EOF},
		{name: "final line without newline", framing: FramingNDJSON, input: "{}\n{\"b\":2}", mode: FramingNDJSON,
			want: []want{{data: `{}`}, {data: `{"b":2}`}}, end: io.EOF},
		{name: "garbage is still a frame", framing: FramingAuto, input: "not json\n{}\n", mode: FramingNDJSON,
			want: []want{{data: `not json`}, {data: `{}`}}, end: io.EOF},
		{name: "bare literal is ndjson", framing: FramingAuto, input: "null\n", mode: FramingNDJSON,
			want: []want{{data: `null`}}, end: io.EOF},
		{name: "oversized line skipped", framing: FramingNDJSON, max: 10, input: strings.Repeat("x", 100) + "\n{}\n", mode: FramingNDJSON,
			want: []want{{bad: "exceeds 10 bytes"}, {data: `{}`}}, end: io.EOF},
		{name: "header", framing: FramingAuto, input: "Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]", mode: FramingHeader,
			want: []want{{data: `{}`}, {data: `[1]`}}, end: io.EOF},
		{name: "header case and extra headers", framing: FramingAuto,
			input: "\r\n content-type: application/json\r\nCONTENT-LENGTH:  2 \r\n\r\n{}\r\nContent-Length: 2\n\n[]", mode: FramingHeader,
			want: []want{{data: `{}`}, {data: `[]`}}, end: io.EOF},
		{name: "header body may span lines", framing: FramingHeader, input: "Content-Length: 4\r\n\r\n{\n}\n", mode: FramingHeader,
			want: []want{{data: "{\n}\n"}}, end: io.EOF},
		{name: "missing length", framing: FramingHeader, input: "Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "missing Content-Length"}, {data: `{}`}}, end: io.EOF},
		{name: "bad length", framing: FramingHeader, input: "Content-Length: -3\r\n\r\nContent-Length: x\r\n\r\nContent-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "invalid Content-Length"}, {bad: "invalid Content-Length"}, {data: `{}`}}, end: io.EOF},
		{name: "conflicting lengths", framing: FramingHeader, input: "Content-Length: 2\r\nContent-Length: 3\r\n\r\nContent-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "conflicting"}, {data: `{}`}}, end: io.EOF},
		{name: "zero length", framing: FramingHeader, input: "Content-Length: 0\r\n\r\nContent-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "empty body"}, {data: `{}`}}, end: io.EOF},
		{name: "ndjson sent to header mode resyncs per line", framing: FramingHeader, input: "{\"a\":1}\nContent-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "invalid header line"}, {data: `{}`}}, end: io.EOF},
		{name: "oversized body skipped", framing: FramingHeader, max: 5, input: "Content-Length: 7\r\n\r\n[1,2,3]Content-Length: 2\r\n\r\n{}", mode: FramingHeader,
			want: []want{{bad: "exceeds 5 bytes"}, {data: `{}`}}, end: io.EOF},
		{name: "truncated body", framing: FramingHeader, input: "Content-Length: 10\r\n\r\n{}", mode: FramingHeader,
			end: io.ErrUnexpectedEOF},
		{name: "truncated header", framing: FramingHeader, input: "Content-Length: 10\r\n", mode: FramingHeader,
			end: io.ErrUnexpectedEOF},
		{name: "empty input", framing: FramingAuto, input: "", mode: FramingAuto, end: io.EOF},
		{name: "blank input", framing: FramingAuto, input: "\n \r\n", mode: FramingAuto, end: io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			maxFrame := tt.max
			if maxFrame == 0 {
				maxFrame = DefaultMaxFrameSize
			}
			frames, mode, end := readAll(t, tt.input, tt.framing, maxFrame)
			if mode != tt.mode {
				t.Errorf("framing %q, want %q", mode, tt.mode)
			}
			if !errors.Is(end, tt.end) {
				t.Errorf("ended with %v, want %v", end, tt.end)
			}
			if len(frames) != len(tt.want) {
				t.Fatalf("got %d frames %+v, want %d", len(frames), frames, len(tt.want))
			}
			for i, w := range tt.want {
				f := frames[i]
				switch {
				case w.bad == "" && (f.bad != "" || string(f.data) != w.data):
					t.Errorf("frame %d = %q (bad %q), want %q", i, f.data, f.bad, w.data)
				case w.bad != "" && !strings.Contains(f.bad, w.bad):
					t.Errorf("frame %d bad = %q, want %q", i, f.bad, w.bad)
				}
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	const req = `{"jsonrpc":"2.0","id":7,"method":"echo","params":{"x":[1,"two"]}}`
	tests := []struct {
		name       string
		framing    Framing
		header     bool // the host sends with header framing
		wantHeader bool
	}{
		{"auto detects ndjson", FramingAuto, false, false},
		{"auto detects header", FramingAuto, true, true},
		{"ndjson", FramingNDJSON, false, false},
		{"header", FramingHeader, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHost(t, Options{Framing: tt.framing}, echo)
			for range 3 { // framing must stay put after the first frame
				if tt.header {
					h.sendHeader(req)
				} else {
					h.send(req + "\n")
				}
				m := h.expectResult("7", `{"x":[1,"two"]}`)
				if m.header != tt.wantHeader {
					t.Fatalf("reply header framing = %v, want %v", m.header, tt.wantHeader)
				}
				if m.JSONRPC != "2.0" {
					t.Fatalf("reply jsonrpc = %q", m.JSONRPC)
				}
			}
		})
	}
}

func TestAutoDetect(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}`
	header := func(prefix string) string {
		return fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", prefix, len(body), body)
	}
	tests := []struct {
		name       string
		first      string
		wantHeader bool
	}{
		{"ndjson", body + "\n", false},
		{"ndjson after blank lines", "\n\r\n   \n" + body + "\n", false},
		{"ndjson indented", "  \t" + body + "\n", false},
		{"header", header(""), true},
		{"header lower case", strings.Replace(header(""), "Content-Length", "content-length", 1), true},
		{"header after content-type", header("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"), true},
		{"header after blank lines", header("\r\n\r\n"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHost(t, Options{}, echo)
			h.send(tt.first)
			if m := h.expectResult("1", "[1]"); m.header != tt.wantHeader {
				t.Fatalf("reply header framing = %v, want %v", m.header, tt.wantHeader)
			}
			// The second frame uses the detected framing too.
			if tt.wantHeader {
				h.sendHeader(body)
			} else {
				h.send(body + "\n")
			}
			if m := h.expectResult("1", "[1]"); m.header != tt.wantHeader {
				t.Fatalf("second reply header framing = %v, want %v", m.header, tt.wantHeader)
			}
		})
	}
}

func TestNotifyBeforeDetectionUsesNDJSON(t *testing.T) {
	h := startHost(t, Options{}, echo)
	if err := h.conn.Notify(context.Background(), "ui.toast", map[string]string{"text": "hi"}); err != nil {
		t.Fatal(err)
	}
	m := h.recv()
	if m.header || m.Method != "ui.toast" || m.ID != nil || string(m.Params) != `{"text":"hi"}` {
		t.Fatalf("got %s (header %v)", m.raw, m.header)
	}
}

func TestParseFraming(t *testing.T) {
	for in, want := range map[string]Framing{"": FramingAuto, "AUTO": FramingAuto, "ndjson": FramingNDJSON, " header ": FramingHeader} {
		if got, err := ParseFraming(in); err != nil || got != want {
			t.Errorf("ParseFraming(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseFraming("lsp"); err == nil {
		t.Error("ParseFraming(lsp) succeeded")
	}
}
