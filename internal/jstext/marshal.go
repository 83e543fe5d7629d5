package jstext

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping, as JSON.stringify writes: a text such as `ignore <n>` or
// `a && b` reaches whoever reads it as it reads, not as `\u003c`.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
