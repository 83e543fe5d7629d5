package rpc

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// pathLevel is one container on the way to a value: an array and the element being read, or an object
// and the member being read.
type pathLevel struct {
	array bool
	index int
	key   string
	inKey bool // an object's next token is a member name (or its end)
}

// valuePath is the path, array indices included (`messages[1].role`), of the value in raw whose first
// token ends at or after offset: where encoding/json's UnmarshalTypeError points. Its Field names the
// members but no index, so a host could not tell which element of a list was wrong. ok is false when
// raw cannot be walked that far.
func valuePath(raw []byte, offset int64) (path string, ok bool) {
	var stack []pathLevel
	advance := func() { // the value at the innermost level is done
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].inKey = true
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		n := len(stack)
		switch {
		case n > 0 && !stack[n-1].array && stack[n-1].inKey:
			if name, isName := tok.(string); isName {
				stack[n-1].key, stack[n-1].inKey = name, false
				continue
			}
			stack = stack[:n-1] // the object's `}`
			advance()
			continue
		case tok == json.Delim(']'):
			stack = stack[:n-1]
			advance()
			continue
		}
		if dec.InputOffset() >= offset {
			return renderPath(stack), true
		}
		switch tok {
		case json.Delim('['):
			stack = append(stack, pathLevel{array: true})
		case json.Delim('{'):
			stack = append(stack, pathLevel{inKey: true})
		default:
			advance()
		}
	}
}

// renderPath writes the levels as `a.b[2].c`.
func renderPath(levels []pathLevel) string {
	var b strings.Builder
	for _, l := range levels {
		if l.array {
			b.WriteString("[" + strconv.Itoa(l.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(l.key)
	}
	return b.String()
}

// withoutIndices is path with its `[n]` parts left out, as a Field writes it.
func withoutIndices(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			if j := strings.IndexByte(path[i:], ']'); j > 0 {
				i += j
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}
