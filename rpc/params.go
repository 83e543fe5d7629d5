package rpc

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/jsondepth"
)

// DecodeParams decodes a request's params into v (a pointer). The hot path (a tool.call carries the
// tool's whole output) uses segmentio's decoder, several times faster than encoding/json. Absent or null
// params leave v untouched: required fields are for the handler to check.
// Unknown fields are ignored so hosts may send newer params to older daemons.
// A failure is returned as a -32602 *Error naming the offending field, e.g.
// "params.seq: want number, got string" (the wording protocol.md documents).
func DecodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || kindOf(raw) == kindNull {
		return nil
	}
	if at, deep := jsondepth.Check(raw, jsondepth.Max); deep {
		return InvalidParams("params: nesting deeper than %d levels (at byte %d)", jsondepth.Max, at)
	}
	if fastjson.Unmarshal(raw, v) == nil {
		return nil
	}
	// The fast decoder failed: decode again with encoding/json, whose errors name the field and the
	// kinds precisely (and which decides, should the two ever disagree on what is valid).
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(v); err != nil {
		return paramsError(raw, err)
	}
	return nil
}

// paramsError turns an error decoding raw into the *Error the peer will see.
func paramsError(raw []byte, err error) *Error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var targetErr *json.InvalidUnmarshalError
	switch {
	case errors.As(err, &typeErr):
		path := "params"
		field := wireField(typeErr.Field)
		if at, ok := valuePath(raw, typeErr.Offset); ok && at != "" && strings.EqualFold(withoutIndices(at), field) {
			field = at // the same member as the host spelled it, with the index of each list element on the way
		}
		switch {
		case strings.HasPrefix(field, "["):
			path += field
		case field != "":
			path += "." + field
		}
		return InvalidParams("%s: want %s, got %s", path, wantName(typeErr.Type, typeErr.Value), gotName(typeErr.Value))
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return InvalidParams("params: invalid JSON: %v", err)
	case errors.As(err, &targetErr):
		// The handler passed a non-pointer: our bug, not the peer's.
		return InternalError("decoding params: %v", err)
	default:
		return InvalidParams("params: %v", err)
	}
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// wantName names the Go type t by its JSON type, since "want int64" or
// "want state.Event" means little to a host author. When the value was a
// number after all (a fraction, or out of range), the integer kinds are
// named precisely instead.
func wantName(t reflect.Type, got string) string {
	if t == nil {
		return "a different type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if strings.HasPrefix(got, "number") {
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return "integer in range for " + t.Kind().String()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return "non-negative integer in range for " + t.Kind().String()
		}
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "string"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		// JSON has one number type; "got number 1.5" or "got number -1"
		// already says what was wrong with it.
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string (base64)"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	default:
		return t.String()
	}
}

// gotName tidies encoding/json's description of the value it got.
func gotName(v string) string {
	if v == "bool" {
		return "boolean"
	}
	return v
}

// wireField is a decode error's field path as the peer wrote it: encoding/json names an embedded
// struct by its Go type (`Hook.at`), which is no field of the wire's; the protocol's names are camelCase,
// so a segment that starts with an upper-case letter is such a type and is left out.
func wireField(field string) string {
	parts := strings.Split(field, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && !(p[0] >= 'A' && p[0] <= 'Z') {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}
