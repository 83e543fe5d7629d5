package handlers

import (
	"strconv"
	"sync"

	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state/intake"
)

// readToolCall reads tool.call's params in one pass over the frame (internal/jsonscan), the event
// decoded and the result's text measured, never copied. ok is false for any text the full decoder must
// decide (decode[ToolCallParams] and intake.ToolEventFromJSON), which then read it again: a name that
// differs from a member's only in case (the full decoder matches names without regard to case), a name
// given twice, an event that is not an object, a value of another type than the member's, an integer
// `at` written with a fraction or past int64, anything jsonscan refuses.
//
// An `at` is stored in *at (p.At is left nil) and hasAt says whether one was given: at is the caller's,
// so reading it allocates nothing. The event is built in room (intake.ReadToolEventInto; nil: a new one).
func readToolCall(raw []byte, at *int64, room intake.Room) (p session.ToolCallParams, e intake.ToolEvent, hasAt, ok bool) {
	sc := intake.NewEventScanner(raw)
	p, e, hasAt, ok = readToolCallValue(&sc, at, room)
	if !ok || !sc.End() {
		return session.ToolCallParams{}, intake.ToolEvent{}, false, false
	}
	return p, e, hasAt, true
}

// toolCallRead is tool.call's params as the rpc layer's pass over the frame read them
// (readToolCallParams), handed to the handler in rpc.Request.Read.
type toolCallRead struct {
	p     session.ToolCallParams
	e     intake.ToolEvent
	at    int64
	hasAt bool

	// What runToolCall works out, kept for the recording it leaves for after the answer (RunRest):
	// held here rather than in a closure of its own.
	sess *session.Session
	call session.Call
	then rpc.Then

	// room is the array of the event read before, for the next (see toolCallReads).
	room intake.Room
}

// toolCallReads keeps the toolCallReads done with, so a tool.call allocates neither its read nor its
// event's members: with the row, they were most of what each call left for the collector, whose pace
// and the pages the heap grows into follow the bytes allocated.
var toolCallReads = sync.Pool{New: func() any { return new(toolCallRead) }}

// newToolCallRead is a toolCallRead from the pool, empty but for the room of a former event.
func newToolCallRead() *toolCallRead { return toolCallReads.Get().(*toolCallRead) }

// release gives r back once nothing reads it: its reply is written or settled and its recording done.
// The event's array is kept for the next read; everything else r held is let go.
func (r *toolCallRead) release() {
	room := r.room
	if held := r.e.Room(); cap(held) > cap(room) {
		room = held
	}
	*r = toolCallRead{room: room.Emptied()}
	toolCallReads.Put(r)
}

// atOrNil is the host's clock, nil when the params gave none.
func (r *toolCallRead) atOrNil() *int64 {
	if r.hasAt {
		return &r.at
	}
	return nil
}

// ParamsReaders are the rpc layer's readers of params in the frame's own pass (rpc.Options): tool.call,
// whose params are nearly all of its frame and come hundreds of times a turn, and hook, whose payload
// can carry tens of megabytes of tool output (hook_wire.go). The map is shared: read it, never change it.
func ParamsReaders() map[string]rpc.ParamsReader { return connReaders }

var connReaders = map[string]rpc.ParamsReader{"tool.call": readToolCallParams, "hook": readHookParams}

// paramsReaders are the readers a replay reads params with before it hands them over (ReadParams): a
// hook's params carry no session of their own at the level a replay looks, and a replay's hooks are read
// by the handler, as they always were.
var paramsReaders = map[string]rpc.ParamsReader{"tool.call": readToolCallParams}

// ReadsParams says whether a replay reads method's params with a one-pass reader (ReadParams).
func ReadsParams(method string) bool { return paramsReaders[method] != nil }

// ReadParams reads raw, the params of a request of method, with the method's one-pass reader, for a
// caller that holds the params apart from their frame (a replay): what rpc.Request.Read would carry, with
// the session and host clock it names, which such a caller needs before the request is handled. ok is
// false when the method has no reader or it cannot decide; the params are then for the handler to read.
func ReadParams(method string, raw []byte) (read any, sessionID string, at *int64, ok bool) {
	reader := paramsReaders[method]
	if reader == nil {
		return nil, "", nil, false
	}
	sc := jsonscan.NewAt(raw, 1) // params stand one level down in their frame, where the rpc layer reads them
	var v any
	if method == "tool.call" {
		v, ok = readToolCallParams(&sc) // called as itself, not through the map, the scanner stays on the stack
	} else {
		other := sc // this one goes to the heap, through the reader's func value
		v, ok = reader(&other)
		sc = other
	}
	if ok && !sc.End() {
		if r, pooled := v.(*toolCallRead); pooled {
			r.release() // read whole, but more follows: the handler reads the params itself
		}
		ok = false
	}
	if !ok {
		return nil, "", nil, false
	}
	sessionID, at = v.(sessionParams).session()
	if at != nil {
		clock := *at // its own: read's is reused once the request is handled
		at = &clock
	}
	return v, sessionID, at, true
}

// sessionParams is what every ParamsReader's value says of its request: the session and the host clock.
type sessionParams interface{ session() (id string, at *int64) }

func (r *toolCallRead) session() (string, *int64) { return r.p.SessionID, r.atOrNil() }

// readToolCallParams is readToolCall on the frame's own scanner: a *toolCallRead, or ok false for
// whatever readToolCall would refuse (the handler then reads the raw params as before).
func readToolCallParams(sc *jsonscan.Scanner) (any, bool) {
	prev := sc.SetNames(intake.EventNames())
	defer sc.SetNames(prev)
	r := newToolCallRead()
	var ok bool
	if r.p, r.e, r.hasAt, ok = readToolCallValue(sc, &r.at, r.room); !ok {
		r.release()
		return nil, false
	}
	return r, true
}

// readToolCallValue reads the params object at sc (readToolCall), leaving sc after it.
func readToolCallValue(sc *jsonscan.Scanner, at *int64, room intake.Room) (p session.ToolCallParams, e intake.ToolEvent, hasAt, ok bool) {
	if !sc.Enter() {
		return p, intake.ToolEvent{}, false, false
	}
	var seen struct{ sessionID, at, ms, event, result bool }
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return p, intake.ToolEvent{}, false, false
		case !more:
			return p, e, hasAt, e.Given()
		}
		switch string(key) {
		case "sessionId":
			ok = jsonscan.Once(&seen.sessionID) && sc.Peek() == '"'
			if ok {
				p.SessionID, ok = sc.String()
			}
		case "at":
			ok = jsonscan.Once(&seen.at)
			if ok {
				hasAt, ok = readInt(sc, at)
			}
		case "ms":
			ok = jsonscan.Once(&seen.ms)
			if ok {
				p.Ms, ok = readFloat(sc)
			}
		case "event":
			ok = jsonscan.Once(&seen.event)
			if ok {
				e, ok = intake.ReadToolEventInto(sc, room)
			}
		case "result":
			ok = jsonscan.Once(&seen.result)
			if ok {
				p.Result, ok = intake.ReadToolResult(sc)
			}
		default:
			ok = !jsonscan.FoldsTo(key, toolCallMembers) && sc.Skip()
		}
		if !ok {
			return p, intake.ToolEvent{}, false, false
		}
	}
}

// toolCallMembers are ToolCallParams' names on the wire.
var toolCallMembers = []string{"sessionId", "at", "ms", "event", "result"}

// readInt reads `at` into *into: null (false), or a number written as an integer within int64 (true);
// anything else (a fraction, an exponent) is the full decoder's to read.
func readInt(sc *jsonscan.Scanner, into *int64) (given, ok bool) {
	if sc.Peek() == 'n' {
		return false, sc.Literal("null")
	}
	ok = sc.Integer(into)
	return ok, ok
}

// readFloat reads `ms`: null (0), or a number within float64. An integer, as hosts send it, is read
// without strconv (an eighth of the params read): float64 of an int64 and ParseFloat of its digits
// round alike. A minus sign goes to ParseFloat, which keeps -0's sign.
func readFloat(sc *jsonscan.Scanner) (float64, bool) {
	if sc.Peek() == 'n' {
		return 0, sc.Literal("null")
	}
	var i int64
	if sc.Peek() != '-' && sc.Integer(&i) {
		return float64(i), true
	}
	n, ok := sc.Number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(n), 64)
	return v, err == nil
}
