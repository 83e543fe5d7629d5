package handlers

import (
	"strconv"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jsonscan"
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
// so reading it allocates nothing.
func readToolCall(raw []byte, at *int64) (p ToolCallParams, e intake.ToolEvent, hasAt, ok bool) {
	sc := intake.NewEventScanner(raw)
	if !sc.Enter() {
		return p, nil, false, false
	}
	var seen struct{ sessionID, at, ms, event, result bool }
	once := func(b *bool) bool {
		was := *b
		*b = true
		return !was
	}
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return p, nil, false, false
		case !more:
			return p, e, hasAt, e != nil && sc.End()
		}
		switch string(key) {
		case "sessionId":
			ok = once(&seen.sessionID) && sc.Peek() == '"'
			if ok {
				p.SessionID, ok = sc.String()
			}
		case "at":
			ok = once(&seen.at)
			if ok {
				hasAt, ok = readInt(&sc, at)
			}
		case "ms":
			ok = once(&seen.ms)
			if ok {
				p.Ms, ok = readFloat(&sc)
			}
		case "event":
			ok = once(&seen.event)
			if ok {
				e, ok = intake.ReadToolEvent(&sc)
			}
		case "result":
			ok = once(&seen.result)
			if ok {
				p.Result, ok = intake.ReadToolResult(&sc)
			}
		default:
			ok = !foldsToMember(key) && sc.Skip()
		}
		if !ok {
			return p, nil, false, false
		}
	}
}

// toolCallMembers are ToolCallParams' names on the wire.
var toolCallMembers = []string{"sessionId", "at", "ms", "event", "result"}

// foldsToMember: the full decoder would take key for one of the members (it matches names regardless of
// case, Unicode folding included), so the fast reader leaves it to that decoder.
func foldsToMember(key []byte) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, m := range toolCallMembers {
		if len(m) == len(key) && asciiEqualFold(m, key) {
			return true
		}
	}
	return false
}

func asciiEqualFold(a string, b []byte) bool {
	for i := range len(a) {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y || (x < 'a' || x > 'z') && a[i] != b[i] {
			return false
		}
	}
	return true
}

// readInt reads `at` into *into: null (false), or a number written as an integer within int64 (true).
func readInt(sc *jsonscan.Scanner, into *int64) (given, ok bool) {
	if sc.Peek() == 'n' {
		return false, sc.Literal("null")
	}
	n, ok := sc.Number()
	if !ok {
		return false, false
	}
	*into, ok = smallInt(n)
	return ok, ok
}

// smallInt is a number written as an integer of at most 18 digits (no fraction, no exponent), which
// int64 always holds; anything else is the full decoder's to read.
func smallInt(n []byte) (int64, bool) {
	neg := len(n) > 0 && n[0] == '-'
	if neg {
		n = n[1:]
	}
	if len(n) == 0 || len(n) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range n {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// readFloat reads `ms`: null (0), or a number within float64.
func readFloat(sc *jsonscan.Scanner) (float64, bool) {
	if sc.Peek() == 'n' {
		return 0, sc.Literal("null")
	}
	n, ok := sc.Number()
	if !ok {
		return 0, false
	}
	if v, ok := smallInt(n); ok && v > -1<<53 && v < 1<<53 && (v != 0 || n[0] != '-') {
		return float64(v), true // exact, as ParseFloat reads it (but -0, which it reads as -0)
	}
	v, err := strconv.ParseFloat(string(n), 64)
	return v, err == nil
}
