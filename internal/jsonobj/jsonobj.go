// Package jsonobj reads and writes JSON settings files the way a person's editor and the agents leave
// them: an object keeps its keys in the file's order (a rewritten file differs from the original only
// where saverd changed it), numbers stay as written, and the output is JSON.stringify(v, null, 2)'s
// layout. The rule writer (state/rules) and the installer (install/) both merge into such files.
package jsonobj

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/saverd/saverd/internal/jsondepth"
)

// Object is a JSON object that keeps its keys in order. A key given twice keeps its first place and its
// last value, as JSON.parse does.
type Object struct {
	keys []string
	vals map[string]any
}

// Get is the value at k (nil when absent).
func (o *Object) Get(k string) any { return o.vals[k] }

// Lookup is the value at k and whether k is there (a null value is there).
func (o *Object) Lookup(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// Set puts v at k: in k's place when it is there, else last.
func (o *Object) Set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// Del removes k.
func (o *Object) Del(k string) {
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

// Keys are the object's keys in order.
func (o *Object) Keys() []string { return o.keys }

// Len is how many keys the object has.
func (o *Object) Len() int { return len(o.keys) }

// Decode reads one JSON value: objects as *Object, arrays as []any, numbers as json.Number. Nesting past
// jsondepth.Max and anything after the value are errors.
func Decode(text string) (any, error) {
	if at, deep := jsondepth.CheckString(text, jsondepth.Max); deep {
		return nil, fmt.Errorf("nesting deeper than %d levels (at byte %d)", jsondepth.Max, at)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := value(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func value(dec *json.Decoder) (any, error) {
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
		obj := &Object{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", tok)
			}
			v, err := value(dec)
			if err != nil {
				return nil, err
			}
			obj.Set(k, v)
		}
		_, err := dec.Token()
		return obj, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := value(dec)
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

// AppendIndented writes v as JSON.stringify(v, null, 2) lays it out; scalar writes each string, number,
// bool and null (the rule writer and the installer each escape as the file's own writer does).
func AppendIndented(b []byte, v any, indent string, scalar func(b []byte, v any) []byte) []byte {
	inner := indent + "  "
	switch x := v.(type) {
	case *Object:
		if len(x.keys) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, "{\n"...)
		for i, k := range x.keys {
			if i > 0 {
				b = append(b, ",\n"...)
			}
			b = append(b, inner...)
			b = scalar(b, k)
			b = append(b, ": "...)
			b = AppendIndented(b, x.vals[k], inner, scalar)
		}
		return append(append(append(b, '\n'), indent...), '}')
	case []any:
		if len(x) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, "[\n"...)
		for i, e := range x {
			if i > 0 {
				b = append(b, ",\n"...)
			}
			b = append(b, inner...)
			b = AppendIndented(b, e, inner, scalar)
		}
		return append(append(append(b, '\n'), indent...), ']')
	}
	return scalar(b, v)
}
