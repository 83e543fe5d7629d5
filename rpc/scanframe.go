package rpc

import (
	"encoding/json"

	"github.com/saverd/saverd/internal/jsonscan"
)

// scanFrame reads a frame's outer object into w in one pass (internal/jsonscan), each member left in
// place in the frame (the read buffer's own bytes, when the frame is lent: see accept). ok is false for any frame the full
// decoders of parseFrame must decide: not an object, invalid, nested past jsondepth.Max (jsonscan
// refuses it without recursing deeper, so the depth check can come after), a member named twice, or a
// name those decoders would match regardless of case.
//
// A request whose method comes before its params and has a reader in readers has its params read by
// that reader in this same pass (w.Read): a tool.call's params are most of its frame, and reading them
// once to find where they end and again in the handler was a tenth of its CPU. A reader that cannot
// decide leaves them to the handler: the scan goes back to where they start and takes them raw.
func scanFrame(data []byte, w *wireIn, readers map[string]ParamsReader) bool {
	*w = wireIn{sc: jsonscan.New(data)}
	sc := &w.sc
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
		if *member != nil {
			return false
		}
		var raw []byte
		if member == &w.Params && readers != nil {
			raw, ok = readParams(sc, readers[string(quotedName(w.Method))], w)
		} else {
			raw, ok = sc.Raw()
		}
		if !ok {
			return false
		}
		*member = raw
	}
}

// readParams reads the params value at sc with read, when there is one and it can; else it takes
// them raw. Either way raw is the value's text.
func readParams(sc *jsonscan.Scanner, read ParamsReader, w *wireIn) (raw []byte, ok bool) {
	if read != nil {
		start, at := sc.Offset(), *sc
		if v, ok := read(sc); ok {
			w.Read = v
			return sc.Since(start), true
		}
		*sc = at
	}
	return sc.Raw()
}

// quotedName is the text between a raw "method" member's quotes (a method written with escapes finds
// no reader, and checkRequest reads it), nil when it is no string.
func quotedName(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil
	}
	return raw[1 : len(raw)-1]
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
