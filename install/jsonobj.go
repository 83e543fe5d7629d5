package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object that keeps its keys in the order the file has them, so a rewritten settings
// file differs from the original only where saverd changed it. A key given twice keeps its first place
// and its last value, as JSON.parse does.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) any { return o.vals[k] }

func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// parseObject reads a settings file: empty (or only whitespace) reads as {}, a leading BOM is dropped,
// and anything that is not one JSON object is an error naming why.
func parseObject(text string) (*object, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	if strings.TrimSpace(text) == "" {
		return &object{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	obj, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		obj := &object{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", tok)
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			obj.set(k, v)
		}
		_, err := dec.Token()
		return obj, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// format writes v with 2-space indentation and a final newline, as Claude Code and Codex write their
// own settings files (JSON.stringify(v, null, 2)).
func format(v any) string {
	var b bytes.Buffer
	writeIndented(&b, v, "")
	b.WriteByte('\n')
	return b.String()
}

func writeIndented(b *bytes.Buffer, v any, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case *object:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writeScalar(b, k)
			b.WriteString(": ")
			writeIndented(b, x.vals[k], inner)
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writeIndented(b, e, inner)
		}
		b.WriteString("\n" + indent + "]")
	default:
		writeScalar(b, v)
	}
}

// writeScalar writes a string, number, bool or null without HTML escaping (a command line keeps its
// `<`, `>` and `&` as typed).
func writeScalar(b *bytes.Buffer, v any) {
	var s bytes.Buffer
	enc := json.NewEncoder(&s)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only the decoder's own values reach here (string, json.Number, bool, nil), all encodable.
		b.WriteString("null")
		return
	}
	b.Write(bytes.TrimSuffix(s.Bytes(), []byte("\n")))
}

// compactSorted is the compact JSON of v with object keys sorted, the form Codex hashes a hook
// declaration in (encoding/json sorts map keys).
func compactSorted(v map[string]any) string {
	var s bytes.Buffer
	enc := json.NewEncoder(&s)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(s.String(), "\n")
}
