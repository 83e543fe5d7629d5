package rpc

import (
	"encoding/json"

	"github.com/saverd/saverd/internal/jsonscan"
)

// scanFrame reads a frame's outer object into w in one pass (internal/jsonscan), each member left in
// place in the frame, which is read fresh for every frame and never reused. ok is false for any frame the full
// decoders of parseFrame must decide: not an object, invalid, nested past jsondepth.Max (jsonscan
// refuses it without recursing deeper, so the depth check can come after), a member named twice, or a
// name those decoders would match regardless of case.
func scanFrame(data []byte, w *wireIn) bool {
	*w = wireIn{}
	sc := jsonscan.New(data)
	if !sc.Enter() {
		return false
	}
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return false
		case !more:
			return sc.End()
		}
		var member *json.RawMessage
		switch string(key) {
		case "jsonrpc":
			member = &w.JSONRPC
		case "id":
			member = &w.ID
		case "method":
			member = &w.Method
		case "params":
			member = &w.Params
		case "result":
			member = &w.Result
		case "error":
			member = &w.Error
		default:
			if jsonscan.FoldsTo(key, wireMembers) || !sc.Skip() {
				return false
			}
			continue
		}
		raw, ok := sc.Raw()
		if !ok || *member != nil {
			return false
		}
		*member = raw
	}
}

// wireMembers are wireIn's names.
var wireMembers = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// methodName unquotes a method name in one pass when jsonscan can, else with encoding/json.
func methodName(raw json.RawMessage) (string, bool) {
	sc := jsonscan.New(raw)
	if m, ok := sc.String(); ok && sc.End() {
		return m, true
	}
	var m string
	return m, json.Unmarshal(raw, &m) == nil
}
