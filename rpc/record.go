package rpc

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/rs/zerolog"
)

// recorder writes every frame, in both directions, as one NDJSON line:
//
//	{"dir":"in"|"out","msg":<frame>}
//	{"dir":"in","raw":"<text>"}                   for a malformed incoming frame
//	{"dir":"in","raw":"<prefix>","truncated":true} for an oversized one
//
// This is the input of `saverd replay`. A nil *recorder records nothing.
type recorder struct {
	mu     sync.Mutex
	w      io.Writer
	log    zerolog.Logger
	failed bool
	buf    []byte
}

func newRecorder(w io.Writer, log zerolog.Logger) *recorder {
	if w == nil {
		return nil
	}
	return &recorder{w: w, log: log}
}

// in records a well-formed incoming frame.
func (r *recorder) in(frame []byte) { r.msg("in", frame) }

// out records an outgoing frame.
func (r *recorder) out(frame []byte) { r.msg("out", frame) }

// msg records a frame that is valid JSON, verbatim unless it spans several
// lines (header framing allows that), in which case it is compacted.
func (r *recorder) msg(dir string, frame []byte) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := append(r.buf[:0], `{"dir":"`...)
	b = append(b, dir...)
	b = append(b, `","msg":`...)
	if bytes.ContainsAny(frame, "\r\n") {
		var c bytes.Buffer
		if err := json.Compact(&c, frame); err == nil {
			frame = c.Bytes()
		}
	}
	b = append(b, frame...)
	b = append(b, "}\n"...)
	r.write(b)
}

// raw records a malformed incoming frame as a JSON string.
func (r *recorder) raw(text []byte, truncated bool) {
	if r == nil {
		return
	}
	s, err := json.Marshal(string(text))
	if err != nil {
		return // cannot happen: strings always marshal
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := append(r.buf[:0], `{"dir":"in","raw":`...)
	b = append(b, s...)
	if truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, "}\n"...)
	r.write(b)
}

// write emits one line; r.mu is held. A failing record must not take the
// connection down, so the first failure is logged and recording stops.
func (r *recorder) write(line []byte) {
	if len(line) <= 1<<20 {
		r.buf = line // reuse the buffer, but do not pin a huge one
	}
	if r.failed {
		return
	}
	if _, err := r.w.Write(line); err != nil {
		r.failed = true
		r.log.Error().Err(err).Msg("rpc: writing the record failed; recording stopped")
	}
}
