package handlers

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state/intake"
)

// toolCall is tool.call for params the frame's own pass could not read (ParamsReaders): decoded here.
func (s *Server) toolCall(_ context.Context, raw json.RawMessage) (any, error) {
	r := newToolCallRead()
	var err error
	if r.p, r.e, r.hasAt, err = toolCallParams(raw, &r.at, r.room); err != nil {
		r.release()
		return nil, err
	}
	return s.runToolCall(r)
}

// runToolCall is tool.call on its params read: r.e not Given when the full decoder's path has the
// event still to decode. r is released (toolCallReads) once the call is done with it: here, or after the
// recording when the answer goes first.
func (s *Server) runToolCall(r *toolCallRead) (any, error) {
	result, then, err := s.answerToolCall(r)
	if !then {
		r.release()
	}
	return result, err
}

// answerToolCall is runToolCall's work; then says the result is r's own rpc.Then, whose rest records
// the call (RunRest).
func (s *Server) answerToolCall(r *toolCallRead) (result any, then bool, err error) {
	sess, c, err := s.tbl.CallOf(&r.p, r.e, r.atOrNil())
	if err != nil {
		return nil, false, err
	}
	r.sess, r.call, r.e = sess, c, c.Event
	if sess.OwesNothing(&r.call) {
		// The answer is known before the row is recorded, so the host, which waits for it, does not wait
		// for the recording; the connection records it before it reads the next request (rpc.Then,
		// r.RunRest), and a caller without one (a replay, rpc.Settle) right away.
		r.then = rpc.Then{Result: noContext, Rest: r}
		return &r.then, true, nil
	}
	out := sess.ToolCall(&r.call)
	if len(out) == 0 {
		return noContext, false, nil
	}
	return session.ContextResult{Context: out}, false, nil
}

// RunRest records a call answered before its recording (runToolCall), then releases r: the Then it
// returned is r's own, read no more once its rest runs (rpc.Then).
func (r *toolCallRead) RunRest() {
	defer r.release()
	r.sess.Record(&r.call)
}

// noContext is the reply of nearly every tool.call, encoded (and boxed) once.
var noContext any = rpc.Encoded(`{"context":[]}`)

// toolCallParams reads the params in one pass when it can (readToolCall), the event with them; else
// with the full decoder, the event (not Given) left for after the session is found, where its errors
// come. hasAt says whether the host gave its clock: in *into, which the one-pass reader fills, or from
// the decoded params.
func toolCallParams(raw json.RawMessage, into *int64, room intake.Room) (p session.ToolCallParams, e intake.ToolEvent, hasAt bool, err error) {
	if p, e, hasAt, ok := readToolCall(raw, into, room); ok {
		return p, e, hasAt, nil
	}
	p, err = decode[session.ToolCallParams](raw)
	if err != nil || p.At == nil {
		return p, intake.ToolEvent{}, false, err
	}
	*into = *p.At
	return p, intake.ToolEvent{}, true, nil
}
