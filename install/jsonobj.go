package install

import (
	"errors"
	"strings"

	"github.com/saverd/saverd/internal/jsonobj"
	"github.com/saverd/saverd/internal/jstext"
)

// object is a JSON object that keeps its keys in the order the file has them, so a rewritten settings
// file differs from the original only where saverd changed it.
type object = jsonobj.Object

// parseObject reads a settings file: empty (or only whitespace) reads as {}, a leading BOM is dropped,
// and anything that is not one JSON object is an error naming why.
func parseObject(text string) (*object, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	if strings.TrimSpace(text) == "" {
		return &object{}, nil
	}
	v, err := jsonobj.Decode(text)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// format writes v with 2-space indentation and a final newline, as Claude Code and Codex write their
// own settings files (JSON.stringify(v, null, 2)).
func format(v any) string {
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

// compactSorted is the compact JSON of v with object keys sorted, the form Codex hashes a hook
// declaration in (encoding/json sorts map keys).
func compactSorted(v map[string]any) string {
	text, _ := jstext.Marshal(v)
	return string(text)
}
