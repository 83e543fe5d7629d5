package install

import (
	"errors"
	"strings"

	"github.com/saverd/saverd/internal/jsonobj"
	"github.com/saverd/saverd/internal/jstext"
)

// Object is a JSON object that keeps its keys in the order the file has them, so a rewritten settings
// file differs from the original only where saverd changed it.
type Object = jsonobj.Object

// ParseObject reads a settings file: empty (or only whitespace) reads as {}, a leading BOM is dropped,
// and anything that is not one JSON object is an error naming why.
func ParseObject(text string) (*Object, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	if strings.TrimSpace(text) == "" {
		return &Object{}, nil
	}
	v, err := jsonobj.Decode(text)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*Object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// Format writes v with 2-space indentation and a final newline, as Claude Code and Codex write their
// own settings files (JSON.stringify(v, null, 2)).
func Format(v any) string {
	return string(jsonobj.AppendIndented(nil, v, "", appendScalar)) + "\n"
}

// appendScalar writes a string, number, bool or null without HTML escaping (a command line keeps its
// `<`, `>` and `&` as typed).
func appendScalar(b []byte, v any) []byte {
	text, err := jstext.Marshal(v)
	if err != nil {
		// Only the decoder's own values reach here (string, json.Number, bool, nil), all encodable.
		return append(b, "null"...)
	}
	return append(b, text...)
}
