package jstext

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping and without the encoder's trailing newline: a text such
// as `ignore <n>` or `a && b` reaches whoever reads it as it reads, not as `\u003c`. (AppendJSON is the
// JSON.stringify form, which differs from this on U+2028 and U+2029, invalid UTF-8 and numbers.)
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
