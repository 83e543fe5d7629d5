package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// planTool is the tool whose accepted result is a plan the process judge can weigh.
const planTool = "ExitPlanMode"

// toolCall is ContextSaver's tool.call hook: the row recorded, the runs and loops its result names, the
// journals refreshed in the background, the judge and process gates consulted, and the texts owed to
// this call's result returned.
func (s *Server) toolCall(_ context.Context, raw json.RawMessage) (any, error) {
	r := newToolCallRead()
	var err error
	if r.p, r.e, r.hasAt, err = s.toolCallParams(raw, &r.at, r.room); err != nil {
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
	sess, err := s.session(r.p.SessionID)
	if err != nil {
		return nil, false, err
	}
	p, e := &r.p, r.e
	if at := r.atOrNil(); at != nil && *at < 0 {
		return nil, false, rpc.InvalidParams("params.at: want a value ≥ 0, got %d", *at)
	}
	if !e.Given() {
		// The full decoder's path: the event is decoded on its own, once the session is known.
		if len(p.Event) == 0 {
			return nil, false, rpc.InvalidParams("params.event: required")
		}
		if e, err = intake.ToolEventFromJSON(p.Event); err != nil {
			return nil, false, rpc.InvalidParams("params.event: %v", err)
		}
		r.e = e
	}
	if tool, ok := e.String("tool"); !ok || tool == "" {
		return nil, false, rpc.InvalidParams("params.event.tool: required string")
	}
	if _, ok := e.String("tool_use_id"); !ok {
		return nil, false, rpc.InvalidParams("params.event.tool_use_id: required string")
	}
	// Past 2^63 the duration would wrap to a negative int64 and undo every total it is added to.
	if math.IsNaN(p.Ms) || p.Ms < 0 || p.Ms >= 1<<63 {
		return nil, false, rpc.InvalidParams("params.ms: want a duration in ms ≥ 0 within int64, got %v", p.Ms)
	}
	r.sess, r.now, r.ms = sess, s.now(r.atOrNil()), int64(jstext.Round(p.Ms))
	if sess.owesNothing(e, p.Result) {
		// The answer is known before the row is recorded, so the host, which waits for it, does not wait
		// for the recording; the connection records it before it reads the next request (rpc.Then,
		// r.RunRest), and a caller without one (a replay, rpc.Settle) right away.
		r.then = rpc.Then{Result: noContext, Rest: r}
		return &r.then, true, nil
	}
	var out []string
	sess.event(func() { out = sess.toolCall(e, p.Result, r.ms, r.now) })
	if len(out) == 0 {
		return noContext, false, nil
	}
	return ContextResult{Context: out}, false, nil
}

// RunRest records a call answered before its recording (runToolCall), then releases r: the Then it
// returned is r's own, read no more once its rest runs (rpc.Then).
func (r *toolCallRead) RunRest() {
	defer r.release()
	r.sess.event(func() { r.sess.record(r.e, r.p.Result, r.ms, r.now) })
}

// owesNothing says whether this call's answer has no texts whatever recording it does: a refused call
// is owed none; the main loop is owed the one-time notes, which only a decision adds; a subagent is
// owed the standing fixes only when there are some, no delivery waits on a prompt, and it has not had
// them — none of which recording a call changes (see owed).
func (sess *Session) owesNothing(e intake.ToolEvent, result intake.ToolResult) bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if result.Deny != nil {
		return true
	}
	if !e.Has("agentId") {
		return len(sess.st.Notes) == 0
	}
	return sess.standingSettled(e.Text("agentId"))
}

// noContext is the reply of nearly every tool.call, encoded (and boxed) once.
var noContext any = rpc.Encoded(`{"context":[]}`)

// toolCallParams reads the params in one pass when it can (readToolCall), the event with them; else
// with the full decoder, the event (not Given) left for after the session is found, where its errors
// come. hasAt says whether the host gave its clock: in *into, which the one-pass reader fills, or from
// the decoded params.
func (s *Server) toolCallParams(raw json.RawMessage, into *int64, room intake.Room) (p ToolCallParams, e intake.ToolEvent, hasAt bool, err error) {
	if p, e, hasAt, ok := readToolCall(raw, into, room); ok {
		return p, e, hasAt, nil
	}
	p, err = decode[ToolCallParams](raw)
	if err != nil || p.At == nil {
		return p, intake.ToolEvent{}, false, err
	}
	*into = *p.At
	return p, intake.ToolEvent{}, true, nil
}

// toolCall records the call and answers the texts owed to its result.
func (sess *Session) toolCall(e intake.ToolEvent, result intake.ToolResult, ms int64, now int64) []string {
	sess.record(e, result, ms, now)
	return sess.owed(e, result, now)
}

// record is what a tool call does to the session: its row, the runs and loops its result names, the
// judge and process gates.
func (sess *Session) record(e intake.ToolEvent, result intake.ToolResult, ms int64, now int64) {
	sess.addRow(sess.keys.RowOf(e, result, ms, sess.st.Turn))
	sess.keepCall(e)
	if sess.debug && len(sess.st.Rows) > 0 {
		r := &sess.st.Rows[len(sess.st.Rows)-1]
		sess.log(fmt.Sprintf("ContextSaver row r%d %s %s %dms %dch", r.Seq, r.Tool, r.Key, r.Ms, r.Chars))
	}
	// A Workflow result is a run launched, an Agent result a loop named; a launch reads its journal at
	// once, and any run still going is re-read on ContextSaver's own cadence — in the background.
	run := intake.RunOf(result.Result)
	if run != nil {
		sess.dispatch(state.RunStart{Run: *run, Now: now})
	}
	if a, ok := intake.AgentOf(spawnValue(e, result.Result)); ok {
		sess.dispatch(state.AgentStart{AgentID: a.AgentID, Description: a.Description, Model: a.Model})
	}
	sess.refreshRunsLater(run != nil, now)
	// One agentic turn can run for hours, so the cadence is judged here too, not only between turns.
	sess.judgeAt(now, reasonToolCall)
	// A launch waits for the phases its script declares; a plan counts once the person accepted it.
	var phases func()
	if run != nil {
		id, value := run.ID, result.Result
		phases = func() { sess.readPhases(id, value) }
	}
	tool, _ := e.String("tool")
	planned := tool == planTool && result.Deny == nil && !result.IsError
	launched := run != nil && sess.processAt(now, state.TriggerWorkflow, phases)
	if run != nil && !launched {
		sess.afterEvent(phases)
	}
	if !launched && !(planned && sess.processAt(now, state.TriggerPlan, nil)) {
		sess.processAt(now, state.TriggerClock, nil)
	}
}

// owed is the texts a recorded call's result carries back: the main loop's one-time notes, drained, or
// a subagent's standing fixes on its first call.
func (sess *Session) owed(e intake.ToolEvent, result intake.ToolResult, now int64) []string {
	if result.Deny != nil || sess.muted() {
		return nil
	}
	// A one-time note is the main loop's: the orchestrator is who re-plans, and a subagent is a random reader.
	if !e.Has("agentId") {
		return sess.owedNotes()
	}
	return sess.owedTo(e.Text("agentId"), now)
}

// spawnValue: an Agent result names its loop, but the description it was given is the call's own
// argument, so the value is handed over with it.
func spawnValue(e intake.ToolEvent, value any) any {
	desc, ok := e.String("description")
	obj, isObj := value.(map[string]any)
	if e.Tool() != "Agent" || !ok || !isObj {
		return value
	}
	out := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		out[k] = v
	}
	out["description"] = desc
	return out
}
