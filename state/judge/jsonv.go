package judge

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jsondepth"
)

// The reply as JavaScript's JSON.parse reads it: any JSON, numbers kept as written (json.Number) so a
// number and a string that spells one stay apart (`"confidence": "0.9"` is not a number) and compare as
// the doubles JavaScript would make of them.

// parseObject is the JSON object spanning the first `{` to the last `}` of text, or nil when that span
// is not exactly one JSON object.
func parseObject(text string) map[string]any {
	start := strings.IndexByte(text, '{')
	end := strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return nil
	}
	if _, deep := jsondepth.CheckString(text[start:end+1], jsondepth.Max); deep {
		return nil // a reply nested this deep is no verdict, and decoding it could take the process down
	}
	dec := json.NewDecoder(strings.NewReader(text[start : end+1]))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	// JSON.parse refuses anything after the value but whitespace.
	if _, err := dec.Token(); err != io.EOF {
		return nil
	}
	obj, _ := v.(map[string]any)
	return obj
}

// str is v when it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

// record is v when it is a JSON object, else nil.
func record(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}

// number is v as the double JavaScript would hold, and whether v is a JSON number at all. A literal
// past the double range is ±Infinity, as in JavaScript; one too small is 0.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// finite is v when it is a finite JSON number.
func finite(v any) (float64, bool) {
	f, ok := number(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// array is v when it is a JSON array.
func array(v any) ([]any, bool) {
	a, ok := v.([]any)
	return a, ok
}
