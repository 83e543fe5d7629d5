package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/internal/jsonscan"
)

// entry is what one line of a script gives the replay.
type entry struct {
	kind entryKind
	req  request   // entryRequest
	raw  string    // entryMalformed: the frame's text
	fork forkReply // entryFork
}

type entryKind uint8

const (
	entryNone      entryKind = iota // a line of the daemon's own, or a reply matching none of its calls
	entryRequest                    // a request the host sent
	entryMalformed                  // a frame the host sent that did not parse: answered with a parse error
	entryFork                       // the host's answer to one of the daemon's model.fork calls
)

// readLine reads one line of a script, noting in forkIDs the model.fork calls a recording shows the
// daemon made, which decide the replies kept after them.
func readLine(text []byte, forkIDs map[string]string) (entry, error) {
	return readLineNow(text, forkIDs, false)
}

// readLine and readLineNow take a line its caller trimmed (bytes.TrimSpace), as every reader of a
// script does.

// readLineNow is readLine, reading a tool.call's params with its reader at once when readNow (see
// scanRequest).
func readLineNow(text []byte, forkIDs map[string]string, readNow bool) (entry, error) {
	if r, ok := scanRequest(text, readNow); ok {
		return entry{kind: entryRequest, req: r}, nil
	}
	var l scriptLine
	if fastjson.Unmarshal(text, &l) == nil {
		switch {
		case l.Dir == "":
			return msgEntry(l.wireMsg, forkIDs), nil
		case l.Raw != nil || l.Msg == nil:
			// the long way: a raw frame, or a recording line without a message
		case l.Dir == "in":
			return msgEntry(*l.Msg, forkIDs), nil
		case l.Dir == "out":
			noteOut(*l.Msg, forkIDs)
			return entry{}, nil
		}
	}
	return readLineSlow(text, forkIDs)
}

// readLineSlow is readLine with encoding/json, a decode per part.
func readLineSlow(text []byte, forkIDs map[string]string) (entry, error) {
	var rec recorded
	if err := json.Unmarshal(text, &rec); err != nil {
		return entry{}, fmt.Errorf("not JSON: %w", err)
	}
	if rec.Dir == "" {
		// A plain host request, not a recording line.
		return inEntry(text, forkIDs)
	}
	if rec.Raw != nil {
		if rec.Dir == "in" {
			return entry{kind: entryMalformed, raw: *rec.Raw}, nil
		}
		return entry{}, nil
	}
	var m wireMsg
	if err := json.Unmarshal(rec.Msg, &m); err != nil {
		return entry{}, fmt.Errorf("msg is not a JSON-RPC message: %w", err)
	}
	switch rec.Dir {
	case "out":
		noteOut(m, forkIDs)
		return entry{}, nil
	case "in":
		return inEntry(rec.Msg, forkIDs)
	}
	return entry{}, fmt.Errorf("dir must be in or out, got %q", rec.Dir)
}

// noteOut notes the purpose of a model.fork the recorded daemon made, to match its reply by.
func noteOut(m wireMsg, forkIDs map[string]string) {
	if forkIDs != nil && m.Method == "model.fork" { // nil: a second pass, whose fork replies were kept
		var p struct{ Purpose string }
		_ = json.Unmarshal(m.Params, &p)
		forkIDs[callID(m.ID)] = p.Purpose
	}
}

func inEntry(text []byte, forkIDs map[string]string) (entry, error) {
	var m wireMsg
	if err := json.Unmarshal(text, &m); err != nil {
		return entry{}, fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	return msgEntry(m, forkIDs), nil
}

// msgEntry is a message the host sent: a request, or a reply to one of the daemon's model.fork calls.
func msgEntry(m wireMsg, forkIDs map[string]string) entry {
	if m.Method != "" {
		r := request{wireMsg: m}
		r.sessionID, r.at = peekParams(m.Params)
		return entry{kind: entryRequest, req: r}
	}
	// A reply to one of the daemon's model.fork calls.
	purpose, known := forkIDs[callID(m.ID)]
	if known || len(forkIDs) == 0 {
		return entry{kind: entryFork, fork: forkReply{purpose: purpose, msg: m}}
	}
	return entry{}
}

// scanRequest reads a line holding one host request in one pass (internal/jsonscan, as the rpc layer
// reads a frame), its members left in place in the line, which is read fresh for every line. ok is
// false for anything the full decoders must decide, which then read the line again: a recording line,
// a reply, an error member, a name a full decoder would match regardless of case, a member given twice,
// a value of another type than the member's, anything jsonscan refuses.
//
// With readNow, params a one-pass reader takes are read in the same pass, when they end the line (as a
// host writes a request): a replay that plays each line as it reads it reads them once, not once to
// find their end and again as the request is handled (request.peek).
//
// The rpc layer's frame scan (rpc/scanframe.go) reads the same envelope, but hands each member back
// raw, so the replay would read its jsonrpc and method a second time to have them as strings; on the
// replay's lines that cost more CPU a line than this scan, which reads them once against lineWords, and
// more again than scanToolCallLine's byte match (BenchmarkReplayRead), so the replay keeps its own.
func scanRequest(text []byte, readNow bool) (r request, ok bool) {
	if r, ok := scanToolCallLine(text, readNow); ok {
		return r, true
	}
	sc := jsonscan.WithNames(text, lineWords)
	if !sc.Enter() {
		return r, false
	}
	var seen [4]bool // jsonrpc, id, method, params
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return r, false
		case !more:
			if !sc.End() || r.Method == "" {
				return r, false
			}
			if handlers.ReadsParams(r.Method) {
				r.unread = true // read once, as the request is handled (see request.peek)
			} else {
				r.sessionID, r.at = peek(r.Params)
			}
			return r, true
		}
		slot := -1
		switch string(key) {
		case "jsonrpc":
			slot = 0
			r.JSONRPC, ok = word(&sc)
		case "id":
			slot = 1
			r.ID, ok = sc.Raw()
		case "method":
			slot = 2
			r.Method, ok = word(&sc)
		case "params":
			slot = 3
			if readNow && !seen[slot] && readLast(&r, text, sc.Offset()) {
				return r, true
			}
			r.Params, ok = sc.Raw()
		default:
			ok = !jsonscan.FoldsTo(key, lineNames) && sc.Skip()
		}
		if !ok || (slot >= 0 && seen[slot]) {
			return r, false
		}
		if slot >= 0 {
			seen[slot] = true
		}
	}
}

// toolCallHead and toolCallMid are a tool.call line as hosts write it (encoding/json's order, the rpc
// layer's and the benchmarks'): `{"jsonrpc":"2.0","id":N,"method":"tool.call","params":…}`.
var (
	toolCallHead = []byte(`{"jsonrpc":"2.0","id":`)
	toolCallMid  = []byte(`,"method":"tool.call","params":`)
)

// scanToolCallLine is scanRequest for a line written exactly as toolCallHead and toolCallMid say, a
// non-negative integer id between them: the fixed members matched as bytes rather than scanned, the
// params read (or skipped) at the depth the whole scan reads them. ok is false for any other line, which
// scanRequest scans; on the lines it takes it makes what scanRequest makes (TestScriptOnePassAgrees).
func scanToolCallLine(text []byte, readNow bool) (r request, ok bool) {
	if !bytes.HasPrefix(text, toolCallHead) {
		return r, false
	}
	i := len(toolCallHead)
	j := i
	for j < len(text) && '0' <= text[j] && text[j] <= '9' {
		j++
	}
	if j == i || (text[i] == '0' && j > i+1) || !bytes.HasPrefix(text[j:], toolCallMid) {
		return r, false
	}
	r.JSONRPC, r.ID, r.Method = "2.0", text[i:j], "tool.call"
	start := j + len(toolCallMid)
	for start < len(text) && strings.IndexByte(jsonSpace, text[start]) >= 0 {
		start++ // where the value starts
	}
	if readNow && readLast(&r, text, start) {
		return r, true
	}
	if len(text) <= start || text[len(text)-1] != '}' {
		return request{}, false
	}
	sc := jsonscan.NewAt(text[start:len(text)-1], 1)
	if r.Params, ok = sc.Raw(); !ok || !sc.End() {
		return request{}, false
	}
	r.unread = true // read once, as the request is handled (see request.peek)
	return r, true
}

// lineWords are the strings nearly every line holds, handed out as they are rather than copied for each.
var lineWords = jsonscan.Intern("2.0", "tool.call")

// word reads a string value: one of lineWords without a copy.
func word(sc *jsonscan.Scanner) (string, bool) {
	if sc.Peek() == '"' {
		if v, ok := sc.Interned(); ok {
			return v.(string), true
		}
	}
	return sc.String()
}

// readLast reads the params at text[start:] with their method's one-pass reader when they are the last
// member, nothing but the request's closing brace after them: r is then whole (its method came before
// them), and ok.
func readLast(r *request, text []byte, start int) bool {
	if r.Method == "" || !handlers.ReadsParams(r.Method) {
		return false
	}
	end := len(text) - 1
	if end <= start || text[end] != '}' {
		return false
	}
	read, sessionID, at, ok := handlers.ReadParams(r.Method, text[start:end])
	if !ok {
		return false // not the last member, or params the handler must read: the scan takes them raw
	}
	r.Params = bytes.TrimRight(text[start:end], jsonSpace) // as Raw takes them
	r.read, r.sessionID, r.at = read, sessionID, at
	return true
}

// jsonSpace is the white space JSON allows between tokens.
const jsonSpace = " \t\r\n"

// lineNames are the members a full decoder of a script line reads: a request's, a reply's and a
// recording line's.
var lineNames = []string{"jsonrpc", "id", "method", "params", "result", "error", "dir", "msg", "raw"}

// peekNames are the params members the replay itself reads.
var peekNames = []string{"sessionid", "at"}

// peek is the sessionId and at of a request's params: in one pass when it can, else with peekParams.
func peek(params []byte) (string, *int64) {
	if sessionID, at, known := scanPeek(params); known {
		return sessionID, at
	}
	return peekParams(params)
}

// scanPeek is peekParams in one pass; known is false for anything it must leave to peekParams.
func scanPeek(params []byte) (sessionID string, at *int64, known bool) {
	if len(params) == 0 {
		return "", nil, true
	}
	sc := jsonscan.New(params)
	if !sc.Enter() {
		return "", nil, false
	}
	var seenID, seenAt bool
	for {
		key, more, ok := sc.Key()
		switch {
		case !ok:
			return "", nil, false
		case !more:
			return sessionID, at, sc.End()
		}
		switch string(key) {
		case "sessionId":
			if seenID {
				return "", nil, false
			}
			seenID = true
			if sessionID, ok = sc.String(); !ok {
				return "", nil, false
			}
		case "at":
			if seenAt {
				return "", nil, false
			}
			seenAt = true
			num, ok := sc.Number()
			if !ok || !isInteger(num) {
				return "", nil, false
			}
			n, err := strconv.ParseInt(string(num), 10, 64)
			if err != nil {
				return "", nil, false
			}
			at = &n
		default:
			if jsonscan.FoldsTo(key, peekNames) || !sc.Skip() {
				return "", nil, false
			}
		}
	}
}

// isInteger: num is an integer literal, no fraction or exponent.
func isInteger(num []byte) bool {
	for i, c := range num {
		if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
			return false
		}
	}
	return len(num) > 0
}
