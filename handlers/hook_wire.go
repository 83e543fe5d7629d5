package handlers

import (
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/jsonscan"
)

// hookRead is a hook's params as the rpc layer's pass over the frame read them (readHookParams), handed
// to the handler in rpc.Request.Read: the payload decoded and its tool output measured where it lay in
// the frame, so a hook of tens of megabytes is read once and never copied.
type hookRead struct {
	p  HookParams // its Payload is nil: the payload is pl
	pl bridge.Payload
}

// readHookParams reads the hook method's params in the frame's own pass: a *hookRead, or ok false for
// anything the handler's decoders must decide (decode[hookWire], bridge.Parse), which then read the
// params as before: a name that differs from a member's only in case, a name given twice, a value of
// another type than the member's, a payload that is absent or no object, anything ReadPayload refuses.
func readHookParams(sc *jsonscan.Scanner) (any, bool) {
	if !sc.Enter() {
		return nil, false
	}
	r := new(hookRead)
	var seen struct{ harness, event, payload, debug, plugin, readBy, width bool }
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return nil, false
		case !more:
			return r, seen.payload
		}
		switch string(key) {
		case "harness":
			ok = jsonscan.Once(&seen.harness) && sc.StringInto(&r.p.Harness)
		case "event":
			ok = jsonscan.Once(&seen.event) && sc.StringInto(&r.p.Event)
		case "payload":
			ok = jsonscan.Once(&seen.payload)
			if ok {
				r.pl, ok = bridge.ReadPayload(sc)
			}
		case "debug":
			ok = jsonscan.Once(&seen.debug) && sc.BoolInto(&r.p.Debug)
		case "plugin":
			ok = jsonscan.Once(&seen.plugin) && sc.BoolInto(&r.p.Plugin)
		case "readBy":
			ok = jsonscan.Once(&seen.readBy)
			if ok {
				_, ok = readInt(sc, &r.p.ReadBy)
			}
		case "width":
			ok = jsonscan.Once(&seen.width)
			if ok {
				_, ok = readInt(sc, &r.p.Width)
			}
		default:
			ok = !jsonscan.FoldsTo(key, hookMembers) && sc.Skip()
		}
		if !ok {
			return nil, false
		}
	}
}

// hookMembers are HookParams' names on the wire.
var hookMembers = []string{"harness", "event", "payload", "debug", "plugin", "readBy", "width"}
