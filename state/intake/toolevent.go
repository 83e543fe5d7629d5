package intake

import (
	"bytes"
	"fmt"
	"reflect"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/jstext"
)

// ToolEventFromJSON decodes one wire event. Numbers stay json.Number so that stableJson re-prints them
// the way JSON.stringify would (1.0 as 1, 1e21 as 1e+21); the top level must be an object.
func ToolEventFromJSON(raw []byte) (ToolEvent, error) {
	m, err := ObjectFromJSON(raw)
	if err != nil {
		return ToolEvent{}, fmt.Errorf("tool event: %w", err)
	}
	return ToolEventOf(m), nil
}

// ObjectFromJSON decodes a JSON object as the events' values are decoded (numbers as json.Number).
func ObjectFromJSON(raw []byte) (map[string]any, error) {
	v, err := jstext.DecodeJSON(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", jsonKindOf(v))
	}
	return m, nil
}

// ToolResult is what a tool call returned, as the ledger reads it.
type ToolResult struct {
	Result  any     // the tool's structured result (maps and json.Number from the wire)
	Text    *string // the text the model saw; nil when absent
	IsError bool
	Deny    *string // the refusal; nil = not denied
	// measured is the text as ReadToolResult measured it instead of keeping it (Text is then nil).
	measured measuredText
}

// UnmarshalJSON reads the wire shape {result?, text?, isError?, deny?}. ContextSaver threw on a text that
// was not a string and counted `deny: null` as a denial (protocol.md, "Differences from ContextSaver"): here a non-string text is
// absent, isError counts only when it is JSON true, and a null deny is no denial. A deny that is
// neither a string nor null (an object, say) still denies; its JSON text is kept as the reason.
func (r *ToolResult) UnmarshalJSON(data []byte) error {
	*r = ToolResult{}
	trimmed := bytes.TrimSpace(data)
	if bytes.Equal(trimmed, []byte("null")) {
		return nil
	}
	if len(trimmed) > 0 && trimmed[0] != '{' {
		// Said as a type error, so the decoder names the member: `params.result: want object, got string`.
		return &json.UnmarshalTypeError{Value: JSONKind(trimmed), Type: reflect.TypeOf(ToolResult{})}
	}
	// Raw members, matched by their exact names, pointing into data: every one is decoded (copied) below
	// before data goes back to the caller. One pass over the result, which carries the tool's whole output.
	var fields struct {
		Result  json.RawMessage `json:"result"`
		Text    json.RawMessage `json:"text"`
		IsError json.RawMessage `json:"isError"`
		Deny    json.RawMessage `json:"deny"`
	}
	rest, err := json.Parse(data, &fields, json.DontMatchCaseInsensitiveStructFields|json.DontCopyRawMessage)
	if err != nil {
		return fmt.Errorf("tool result: %w", err)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return fmt.Errorf("tool result: trailing data after the JSON value")
	}
	if raw := fields.Result; raw != nil {
		v, err := jstext.DecodeJSON(raw)
		if err != nil {
			return fmt.Errorf("tool result: result: %w", err)
		}
		r.Result = v
	}
	if raw := fields.Text; raw != nil {
		var s string
		if rawIsString(raw) && json.Unmarshal(raw, &s) == nil {
			r.Text = &s
		}
	}
	if raw := fields.IsError; raw != nil {
		r.IsError = bytes.Equal(bytes.TrimSpace(raw), []byte("true"))
	}
	if raw := fields.Deny; raw != nil {
		trimmed := bytes.TrimSpace(raw)
		var s string
		switch {
		case bytes.Equal(trimmed, []byte("null")):
		case rawIsString(trimmed) && json.Unmarshal(trimmed, &s) == nil:
			r.Deny = &s
		default:
			var buf bytes.Buffer
			if json.Compact(&buf, trimmed) == nil {
				r.Deny = new(buf.String())
			} else {
				r.Deny = new(string(trimmed))
			}
		}
	}
	return nil
}

// MarshalJSON writes the wire shape back, leaving out what is absent.
func (r ToolResult) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	if r.Result != nil {
		out["result"] = r.Result
	}
	if r.Text != nil {
		out["text"] = *r.Text
	}
	if r.IsError {
		out["isError"] = true
	}
	if r.Deny != nil {
		out["deny"] = *r.Deny
	}
	return json.Marshal(out)
}

func rawIsString(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '"'
}

func jsonKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return "an object"
}

// ---- reading loosely typed values, as ContextSaver read them

// anyString is v when it is a string, else "".
func anyString(v any) string {
	s, _ := v.(string)
	return s
}

// anyStringPtr is v when it is a string, else nil (ContextSaver's `string | null`).
func anyStringPtr(v any) *string {
	if s, ok := v.(string); ok {
		return &s
	}
	return nil
}

// anyRecord is v when it is a JSON object, else nil (which reads as an empty one).
func anyRecord(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	if e, ok := v.(ToolEvent); ok {
		return e.Map()
	}
	return nil
}

// anyNumberPtr is anyNumber as ContextSaver's `number | null`.
func anyNumberPtr(v any) *float64 {
	if f, ok := jstext.NumberOf(v); ok {
		return &f
	}
	return nil
}

// ---- JSON.stringify, byte for byte

// eventReservedKeys are the event's own fields; a key built from the arguments leaves them out (top level only).
var eventReservedKeys = []string{"tool", "tool_use_id", "agentId", "consent"}

// stableJSON is ContextSaver's stableJson with its two accidents fixed (protocol.md, "Differences from ContextSaver"): keys are sorted
// plainly (by UTF-16 code units, as Array.prototype.sort compares) at every depth, and the reserved
// names are dropped at the top level only. Everything else prints as JSON.stringify would: no HTML
// escaping, U+2028/U+2029 unescaped, numbers in JavaScript's form, non-finite numbers as null.
func stableJSON(v any, omit []string) string {
	return string(jstext.AppendJSON(nil, v, omit, true))
}

// jsonLen16 is the length in UTF-16 units of JSON.stringify(v); key order does not change a length.
func jsonLen16(v any) int { return jstext.Len16(string(jstext.AppendJSON(nil, v, nil, false))) }

// JSONKind names the kind of a JSON text by its first byte (string, number, object, array, bool, null),
// as a type error words it: the value is not decoded to be named.
func JSONKind(raw []byte) string {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0:
		return "nothing"
	case t[0] == '"':
		return "string"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case t[0] == 't' || t[0] == 'f':
		return "bool"
	case t[0] == 'n':
		return "null"
	}
	return "number"
}

// InputKey is a call's whole input as canonical JSON (keys sorted, the event's own fields left out),
// never cut: what tells two calls apart when their ledger keys agree (a key is cut at KeyMax, and a
// Grep's holds only its pattern and path).
func InputKey(input map[string]any) string { return stableJSON(input, eventReservedKeys) }
