package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/jsondepth"
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/internal/jstext"
)

// wireIn holds the members of an incoming message object, each verbatim.
// A member present with a null value is "null"; an absent one is nil.
type wireIn struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	// Read is what the method's ParamsReader made of Params in the frame's own pass; nil when it had
	// none, or could not (see scanFrame).
	Read any `json:"-"`
	// sc is scanFrame's scanner, kept here because a ParamsReader is handed a pointer to it (which
	// would otherwise move a scanner to the heap for every frame).
	sc jsonscan.Scanner
}

// wireOut is an outgoing message; only the members that apply are set.
// Field order gives the conventional {"jsonrpc","id","method",...} layout.
type wireOut struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

const version = "2.0"

var jsonNull = json.RawMessage("null")

type jsonKind byte

const (
	kindInvalid jsonKind = iota
	kindObject
	kindArray
	kindString
	kindNumber
	kindBool
	kindNull
)

var kindNames = [...]string{"invalid JSON", "object", "array", "string", "number", "boolean", "null"}

func (k jsonKind) String() string { return kindNames[k] }

// kindOf classifies a JSON value by its first byte; raw must be valid JSON.
func kindOf(raw []byte) jsonKind {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
		i++
	}
	if i == len(raw) {
		return kindInvalid
	}
	switch c := raw[i]; {
	case c == '{':
		return kindObject
	case c == '[':
		return kindArray
	case c == '"':
		return kindString
	case c == 't' || c == 'f':
		return kindBool
	case c == 'n':
		return kindNull
	case c == '-' || '0' <= c && c <= '9':
		return kindNumber
	default:
		return kindInvalid
	}
}

// parseFrame decodes a frame's outer object into w: -32700 when the text is not JSON, -32600 when it is
// JSON but not a single message object. w holds slices of data, nothing of its own, so one can serve
// every frame of a stream.
func parseFrame(data []byte, w *wireIn, readers map[string]ParamsReader) *Error {
	if scanFrame(data, w, readers) {
		return nil
	}
	if at, deep := jsondepth.Check(data, jsondepth.Max); deep {
		// Before any decoder: a recursive one overflows its stack on a deep enough frame, and a
		// stack overflow ends the process, every session with it.
		return Errorf(CodeParseError, "parse error: nesting deeper than %d levels (at byte %d)", jsondepth.Max, at)
	}
	// Every frame is decoded here, a tool.call with the tool's whole output in it: the fast decoder
	// first, and encoding/json only to word what is wrong with a frame the fast one refused.
	*w = wireIn{}
	if kindOf(data) == kindObject && fastjson.Unmarshal(data, w) == nil {
		return nil
	}
	*w = wireIn{}
	err := json.Unmarshal(data, w)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil && kindOf(data) == kindObject:
		return nil
	case err == nil || errors.As(err, &typeErr):
		// Valid JSON of the wrong shape (json.Unmarshal accepts a top-level
		// null into a struct, hence the kind check above).
		return notAnObject(kindOf(data))
	default:
		return parseError(err)
	}
}

func notAnObject(k jsonKind) *Error {
	if k == kindArray {
		return invalidRequest("batch requests are not supported")
	}
	return invalidRequest("want a JSON object, got %s", k)
}

func parseError(err error) *Error {
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return Errorf(CodeParseError, "parse error: %v (at byte %d)", err, syntaxErr.Offset)
	}
	return Errorf(CodeParseError, "parse error: %v", err)
}

func invalidRequest(format string, args ...any) *Error {
	return Errorf(CodeInvalidRequest, "invalid request: "+format, args...)
}

// isRequest reports whether w is a call or notification rather than a reply.
func (w *wireIn) isRequest() bool { return w.Method != nil }

// isReply reports whether w claims to be a reply (has result or error).
func (w *wireIn) isReply() bool { return w.Result != nil || w.Error != nil }

// isNotification reports whether a request has no id. An explicit null id is
// a (discouraged) call, answered with id null.
func (w *wireIn) isNotification() bool { return w.ID == nil }

// replyID is the id to answer w with: its own when well formed, else null.
func (w *wireIn) replyID() json.RawMessage {
	switch kindOf(w.ID) {
	case kindString:
		if !utf8.Valid(w.ID) {
			return jsonNull // echoed raw, it would make the reply itself invalid JSON text
		}
		return w.ID
	case kindNumber:
		return w.ID
	default:
		return jsonNull
	}
}

// checkRequest validates a call or notification and returns its method and
// params (nil when absent or null).
// last is the method of the connection's previous request: a host sends the same one over and over, and
// a name written as it reads (no escape in it) is handed out again rather than copied.
func (w *wireIn) checkRequest(last string) (method string, params json.RawMessage, e *Error) {
	if problem := checkVersion(w.JSONRPC); problem != "" {
		return "", nil, invalidRequest("%s", problem)
	}
	method, ok := last, last != "" && string(quotedName(w.Method)) == last && !strings.Contains(last, `\`)
	if !ok {
		method, ok = methodName(w.Method)
	}
	if kindOf(w.Method) != kindString || !ok || method == "" {
		return "", nil, invalidRequest(`"method" must be a non-empty string`)
	}
	if w.ID != nil {
		if k := kindOf(w.ID); k != kindString && k != kindNumber && k != kindNull {
			return "", nil, invalidRequest(`"id" must be a string, number or null, got %s`, k)
		}
		if !utf8.Valid(w.ID) {
			return "", nil, invalidRequest(`"id" must be valid UTF-8`)
		}
	}
	switch kindOf(w.Params) {
	case kindInvalid, kindNull: // absent or null
		return method, nil, nil
	case kindObject, kindArray:
		return method, w.Params, nil
	default:
		return "", nil, invalidRequest(`"params" must be an object or array, got %s`, kindOf(w.Params))
	}
}

// checkReply validates a reply to one of our calls. It returns the result
// (never empty: a null result is "null"), or the peer's error, or an error
// describing why the reply itself is malformed.
func (w *wireIn) checkReply() (json.RawMessage, error) {
	if problem := checkVersion(w.JSONRPC); problem != "" {
		return nil, invalidReply("%s", problem)
	}
	// Some peers send a null member for the one that does not apply.
	hasError := w.Error != nil && kindOf(w.Error) != kindNull
	hasResult := w.Result != nil && !(hasError && kindOf(w.Result) == kindNull)
	switch {
	case hasResult && hasError:
		return nil, invalidReply(`has both "result" and "error"`)
	case hasResult:
		return w.Result, nil
	case hasError:
		return nil, decodePeerError(w.Error)
	default:
		return nil, invalidReply(`has neither "result" nor "error"`)
	}
}

// decodePeerError turns the peer's error object into an *Error.
func decodePeerError(raw json.RawMessage) error {
	var e struct {
		Code    *int64          `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if kindOf(raw) != kindObject || json.Unmarshal(raw, &e) != nil || e.Code == nil {
		return invalidReply(`"error" must be an object with an integer "code" and a string "message"`)
	}
	out := &Error{Code: *e.Code, Message: e.Message}
	if len(e.Data) > 0 && kindOf(e.Data) != kindNull {
		out.Data = e.Data
	}
	return out
}

// invalidReply describes a malformed reply from the peer. It is a plain
// error, not an *Error: the peer did not choose a code.
func invalidReply(format string, args ...any) error {
	return fmt.Errorf("rpc: invalid reply from peer: "+format, args...)
}

// checkVersion returns a problem unless raw is the string "2.0".
func checkVersion(raw json.RawMessage) string {
	if string(raw) == `"`+version+`"` {
		return ""
	}
	var v string
	if raw == nil {
		return `missing "jsonrpc": "2.0"`
	}
	if json.Unmarshal(raw, &v) != nil || v != version {
		return `"jsonrpc" must be "2.0"`
	}
	return ""
}

// ourCallID parses the id of a reply as one of ours: we only send positive numbers. A host that answers
// with the number as a string ("7" for 7) is taken at its word, rather than leaving the call to wait
// out its whole timeout; anything else cannot match a pending call.
func ourCallID(raw json.RawMessage) (int64, bool) {
	text := string(bytes.TrimSpace(raw))
	switch kindOf(raw) {
	case kindNumber:
	case kindString:
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" || s[0] == '+' || strings.TrimSpace(s) != s {
			return 0, false
		}
		text = s
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	return n, err == nil
}

// encode marshals m, which must have JSONRPC set. encoding/json compacts the
// raw members, which NDJSON needs: a frame must not contain a newline.
func (m *wireOut) encode() ([]byte, error) {
	b, err := marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding message: %w", err)
	}
	return b, nil
}

// marshal is json.Marshal without HTML escaping (jstext.Marshal): the host reads the text of
// ContextSaver's own words (`ignore <n>`), and `\u003c` helps nobody on a pipe. An Encoded value is itself.
func marshal(v any) ([]byte, error) {
	if e, ok := v.(Encoded); ok {
		return e, nil
	}
	return jstext.Marshal(v)
}

// Encoded is a result its handler encoded once and for all, as compact JSON: it goes out as it is,
// without another pass of the encoder (a tool.call's usual empty reply).
type Encoded []byte

// MarshalJSON is e itself, so an Encoded result marshals the same wherever it is encoded.
func (e Encoded) MarshalJSON() ([]byte, error) { return e, nil }

// FrameError is the error the daemon answers a frame with when the frame is not a JSON-RPC message
// (nil when it is one), so a replay of a recorded malformed frame says what the live daemon said.
func FrameError(data []byte) *Error {
	var w wireIn
	if e := parseFrame(data, &w, nil); e != nil {
		return e
	}
	return nil
}
