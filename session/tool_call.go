package session

import (
	"fmt"
	"math"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// planTool is the tool whose accepted result is a plan the process judge can weigh.
const planTool = "ExitPlanMode"

// Call is one tool call as the session API takes it: its event and result as read (intake), how long it
// took and when it ended (ms).
type Call struct {
	Event  intake.ToolEvent
	Result intake.ToolResult
	Ms     int64
	Now    int64
}

// CallOf checks tool.call's params as read and finds the session they name: the call as the session
// takes it, or the error naming what is wrong. e is the event when a one-pass reader read it; not Given,
// p.Event is decoded here, once the session is known, where its errors come. at is the host's clock, nil
// when the params gave none.
func (s *Table) CallOf(p *ToolCallParams, e intake.ToolEvent, at *int64) (*Session, Call, error) {
	sess, err := s.Session(p.SessionID)
	if err != nil {
		return nil, Call{}, err
	}
	if at != nil && *at < 0 {
		return nil, Call{}, invalid("params.at: want a value ≥ 0, got %d", *at)
	}
	if !e.Given() {
		if len(p.Event) == 0 {
			return nil, Call{}, invalid("params.event: required")
		}
		if e, err = intake.ToolEventFromJSON(p.Event); err != nil {
			return nil, Call{}, invalid("params.event: %v", err)
		}
	}
	if tool, ok := e.String("tool"); !ok || tool == "" {
		return nil, Call{}, invalid("params.event.tool: required string")
	}
	if _, ok := e.String("tool_use_id"); !ok {
		return nil, Call{}, invalid("params.event.tool_use_id: required string")
	}
	// Past 2^63 the duration would wrap to a negative int64 and undo every total it is added to.
	if math.IsNaN(p.Ms) || p.Ms < 0 || p.Ms >= 1<<63 {
		return nil, Call{}, invalid("params.ms: want a duration in ms ≥ 0 within int64, got %v", p.Ms)
	}
	return sess, Call{Event: e, Result: p.Result, Ms: int64(jstext.Round(p.Ms)), Now: s.Now(at)}, nil
}

// ToolCall records the call, as one ordered event, and answers the texts owed to its result (ContextSaver's
// tool.call hook): the row, the runs and loops its result names, the journals refreshed in the
// background, the judge and process gates.
func (sess *Session) ToolCall(c *Call) (out []string) {
	sess.event(func() { out = sess.toolCall(c.Event, c.Result, c.Ms, c.Now) })
	return out
}

// Record records the call as one ordered event, its answer given before (OwesNothing said it owes
// nothing).
func (sess *Session) Record(c *Call) {
	sess.event(func() { sess.record(c.Event, c.Result, c.Ms, c.Now) })
}

// OwesNothing says whether this call's answer has no texts whatever recording it does: a refused call
// is owed none; the main loop is owed the one-time notes, which only a decision adds; a subagent is
// owed the standing fixes only when there are some, no delivery waits on a prompt, and it has not had
// them — none of which recording a call changes (see owed). The answer can then go before the call is
// recorded (Record).
func (sess *Session) OwesNothing(c *Call) bool {
	e, result := c.Event, c.Result
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
