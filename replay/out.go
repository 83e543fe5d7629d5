package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// frameOut prints the frames a replay shows, byte for byte as encoding a map of the frame's members
// would (members in sorted order, HTML left unescaped, one line each), without building the map: each
// member's value is encoded on its own into one reused buffer, and the frames go out through one
// buffered writer rather than a write apiece.
type frameOut struct {
	mu  sync.Mutex
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder // writes into buf
	// compact is the last Encoded value found compact: a tool.call's reply is the same few bytes every
	// time, and comparing them is cheaper than checking them again.
	compact []byte
	// refNote is the last notification printed about a session alone (ui.invalidate, after nearly every
	// event of a replay), and refFrame its bytes, printed again as they are when it recurs.
	refNote  struct{ method, session string }
	refFrame []byte
	// held is what background work printed while it ran (holding > 0): a replay runs it inline, inside
	// the request that started it, where a live daemon runs it beside the read loop and its frames follow
	// the request's reply; release prints them after the reply too.
	holding int
	held    bytes.Buffer
}

func newFrameOut(w io.Writer) *frameOut {
	f := &frameOut{w: bufio.NewWriterSize(w, 64<<10)}
	f.enc = json.NewEncoder(&f.buf)
	f.enc.SetEscapeHTML(false)
	return f
}

// member is one member of a frame: its name, already quoted with the separator before it, and its value;
// or, for an id, its raw text (raw, value nil), not boxed for every reply.
type member struct {
	prefix string
	value  any
	raw    json.RawMessage
}

// frame prints one frame of the given members, in the order given (callers give them sorted, as a
// map's encoding orders them), then tail. A value that does not encode drops the whole frame, as the
// map's encoding printed nothing for it.
func (f *frameOut) frame(tail string, members ...member) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frameLocked(tail, members...)
}

// frameLocked is frame with f.mu held; it reports whether the frame was printed (its bytes are then in
// f.buf until the next frame).
func (f *frameOut) frameLocked(tail string, members ...member) bool {
	f.buf.Reset()
	for _, m := range members {
		f.buf.WriteString(m.prefix)
		if e, ok := m.value.(rpc.Encoded); ok && f.isCompact(e) {
			f.buf.Write(e) // what the encoder prints for it: its MarshalJSON, compacted
			continue
		}
		value := m.value
		if m.raw != nil {
			if isUint(m.raw) {
				f.buf.Write(m.raw) // a request's usual id, which the encoder prints as it is
				continue
			}
			value = m.raw
		}
		if err := f.enc.Encode(value); err != nil {
			return false
		}
		f.buf.Truncate(f.buf.Len() - 1) // Encode ends the value with a newline
	}
	f.buf.WriteString(tail)
	f.buf.WriteString("}\n")
	// A replay's output going nowhere is not the recording's fault: write errors end nothing (the
	// encoder writing to stdout ignored them too).
	f.write(f.buf.Bytes())
	return true
}

// write sends one frame's bytes out, or holds them while background work runs.
func (f *frameOut) write(b []byte) {
	if f.holding > 0 {
		f.held.Write(b)
		return
	}
	_, _ = f.w.Write(b)
}

// hold holds what is printed from now until the returned func is called (session.Options.OffLoop:
// around each background run).
func (f *frameOut) hold() (done func()) {
	f.mu.Lock()
	f.holding++
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		f.holding--
		f.mu.Unlock()
	}
}

// release prints what background work printed, after the reply of the request that started it.
func (f *frameOut) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, _ = f.w.Write(f.held.Bytes())
	f.held.Reset()
}

// flush writes out what is buffered, before anything else writes to the same output.
func (f *frameOut) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = f.w.Flush()
}

func (f *frameOut) notify(method string, params any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ref, isRef := params.(session.SessionRef)
	if isRef && f.refFrame != nil && f.refNote.method == method && f.refNote.session == ref.SessionID {
		f.write(f.refFrame)
		return
	}
	if f.frameLocked("", member{prefix: `{"jsonrpc":"2.0","method":`, value: method}, member{prefix: `,"params":`, value: params}) && isRef {
		f.refNote.method, f.refNote.session = method, ref.SessionID
		f.refFrame = append(f.refFrame[:0], f.buf.Bytes()...)
	}
}

func (f *frameOut) call(id int, method string, params any) {
	f.frame("", member{prefix: `{"id":`, value: id}, member{prefix: `,"jsonrpc":"2.0","method":`, value: method}, member{prefix: `,"params":`, value: params})
}

func (f *frameOut) result(id json.RawMessage, result any) {
	f.frame("", member{prefix: `{"id":`, raw: id}, member{prefix: `,"jsonrpc":"2.0","result":`, value: result})
}

// fail prints an error reply; id nil prints null, as for a frame that did not parse.
func (f *frameOut) fail(id json.RawMessage, e *rpc.Error) {
	f.frame(`,"jsonrpc":"2.0"`, member{prefix: `{"error":`, value: e}, member{prefix: `,"id":`, raw: id}) // nil: null
}

// isCompact: e is valid JSON with no whitespace byte anywhere, so compacting it (all the encoder does to
// a MarshalJSON's output, HTML left unescaped) changes nothing. A tool.call's usual reply is one.
func (f *frameOut) isCompact(e rpc.Encoded) bool {
	if bytes.Equal(e, f.compact) && f.compact != nil {
		return true
	}
	if bytes.ContainsAny(e, " \t\r\n") || !json.Valid(e) {
		return false
	}
	f.compact = append(f.compact[:0], e...)
	return true
}

// isUint: raw is a JSON integer literal of digits alone (no sign, no leading zero), which encoding it
// leaves as it is.
func isUint(raw []byte) bool {
	if len(raw) == 0 || raw[0] == '0' && len(raw) > 1 {
		return false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
