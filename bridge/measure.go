package bridge

import (
	"github.com/saverd/saverd/internal/jsonscan"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state/intake"
)

// A tool's output can be tens of megabytes, and a row needs only its length and its head (see
// intake.ToolResult). So the strings of a tool_response that the text the model saw is made of are
// measured where they lie in the frame, never decoded: a 90 MB output used to be copied four times over
// (the payload, the response, the decoded string and its check) and peaked the daemon at 458 MB. Only
// the strings TextOf reads as the text are measured; everything else a row reads of the response (a
// file path, a flag, a patch) is decoded as before. A response this reader is unsure of (a name given
// twice, an escape in a name, text that is not valid UTF-8) is decoded whole instead, as it always was.

// measureFrom is how long a text string may be before it is measured instead of decoded.
const measureFrom = 64 << 10

// measured is a text string of a tool's response, measured in place: its length in UTF-16 units, its
// lines' count less one, and its start, decoded.
type measured struct {
	units    int64
	newlines int64
	start    string
}

// measuredCall is ToolCallOf's result read with its text strings measured: ok false when the response
// holds none long enough, or this reader is unsure of it (the caller then decodes it whole).
func measuredCall(tool string, raw []byte) (intake.ToolResult, bool) {
	sc := jsonscan.New(raw)
	res, ok := measuredResponse(&sc, tool)
	if !ok || !sc.End() {
		return intake.ToolResult{}, false
	}
	return res, true
}

// measuredResponse is measuredCall of the response at sc, which it reads past (ReadPayload reads it where
// it lies in the hook's frame): ok false when the response holds no text string long enough, or this
// reader is unsure of it.
func measuredResponse(sc *jsonscan.Scanner, tool string) (intake.ToolResult, bool) {
	r := responseReader{tool: tool, buf: make([]byte, measureFrom)}
	res, ok := r.value(sc, "")
	if !ok || !r.measured {
		return intake.ToolResult{}, false
	}
	units, start, whole, ok := textMeasure(tool, res)
	if !ok {
		return intake.ToolResult{}, false
	}
	return intake.MeasuredResult(res, units, start, whole)
}

// responseReader reads a tool_response, measuring the strings at the paths TextOf reads as the text.
type responseReader struct {
	tool     string
	buf      []byte // a string's decoded text, when it fits
	measured bool   // a string was measured
}

// value reads one value at path (its member names, dot-separated).
func (r *responseReader) value(sc *jsonscan.Scanner, path string) (any, bool) {
	switch sc.Peek() {
	case '{':
		return r.object(sc, path)
	case '[':
		var out []any
		ok := sc.Array(func() bool {
			v, ok := r.value(sc, path+"[]")
			out = append(out, v)
			return ok
		})
		if out == nil {
			out = []any{}
		}
		return out, ok
	case '"':
		if !textPath(r.tool, path) {
			return sc.String()
		}
		start := sc.Offset()
		units, n, whole, ok := sc.Measure(r.buf)
		if !ok {
			return nil, false
		}
		if whole {
			return string(r.buf[:n]), true
		}
		r.measured = true
		return measured{units: int64(units), newlines: newlines(sc.Since(start)), start: string(r.buf[:min(n, 4<<10)])}, true
	default:
		return sc.Value()
	}
}

func (r *responseReader) object(sc *jsonscan.Scanner, path string) (any, bool) {
	if !sc.Enter() {
		return nil, false
	}
	m := map[string]any{}
	for {
		key, more, ok := sc.Key()
		if !ok {
			return nil, false
		}
		if !more {
			return m, true
		}
		name := string(key)
		if _, twice := m[name]; twice {
			return nil, false
		}
		sub := name
		if path != "" {
			sub = path + "." + name
		}
		if m[name], ok = r.value(sc, sub); !ok {
			return nil, false
		}
	}
}

// textPath reports whether the string at path is read by TextOf as (part of) the text, and by nothing
// else a row reads: those are the ones measured.
func textPath(tool, path string) bool {
	switch {
	case path == "":
		return true // the whole response a string (Codex's)
	case tool == "Bash":
		return path == "stdout" || path == "stderr"
	case tool == "Read":
		return path == "file.content"
	case tool == "Grep":
		return path == "content"
	case tool == "Edit", tool == "MultiEdit", tool == "Write", tool == "Glob", IsAgentTool(tool):
		return false // their text is made of other members, or they read these ones for more
	}
	switch path {
	case "output", "result", "content", "text", "stdout":
		return true
	}
	return false
}

// newlines counts the newlines a JSON string's text holds (written \n or \u000a), from its raw form.
func newlines(raw []byte) int64 {
	var n int64
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		switch raw[i+1] {
		case 'n':
			n++
		case 'u':
			if i+5 < len(raw) && string(raw[i+2:i+5]) == "000" && (raw[i+5] == 'a' || raw[i+5] == 'A') {
				n++
			}
		}
		i++ // past the escaped character
	}
	return n
}

// textMeasure is TextOf for a response holding measured strings: the text's length in UTF-16 units and
// its start (all of it when whole). ok false when the text is not made as this knows how (the caller then
// decodes it whole).
func textMeasure(tool string, res any) (units int64, start string, whole, ok bool) {
	var p part
	switch v := res.(type) {
	case measured:
		p, ok = partOf(v)
	case map[string]any:
		p, ok = recordMeasure(tool, v)
	}
	return p.units, p.text, p.whole, ok
}

// part is one string of a text: a plain one, or a measured one.
type part struct {
	units int64
	text  string // all of a plain string, the start of a measured one
	whole bool
}

func partOf(v any) (part, bool) {
	switch s := v.(type) {
	case string:
		return part{units: int64(jstext.Len16(s)), text: s, whole: true}, true
	case measured:
		return part{units: s.units, text: s.start}, true
	}
	return part{}, false
}

// joined is a, "\n", b as one part.
func joined(a, b part) part {
	p := part{units: a.units + 1 + b.units, text: a.text}
	if a.whole {
		p.text, p.whole = a.text+"\n"+b.text, b.whole
	}
	return p
}

func recordMeasure(tool string, r map[string]any) (part, bool) {
	switch tool {
	case "Bash":
		out, okOut := partOf(r["stdout"])
		errText, okErr := partOf(r["stderr"])
		if !okOut {
			out = part{whole: true}
		}
		switch {
		case okErr && errText.units > 0 && out.units > 0:
			out = joined(out, errText)
		case okErr && errText.units > 0:
			out = errText
		}
		return out, true
	case "Read":
		f, _ := r["file"].(map[string]any)
		m, ok := f["content"].(measured)
		if !ok {
			return part{}, false
		}
		return numberedMeasure(m, f["startLine"]), true
	case "Grep":
		if p, ok := partOf(r["content"]); ok && p.units > 0 {
			return p, true
		}
		return part{}, false
	}
	for _, k := range []string{"output", "result", "content", "text", "stdout"} {
		switch v := r[k].(type) {
		case string, measured:
			return partOf(v)
		case []any:
			return part{}, false // blocks: never measured (textPath), so the whole decode reads them
		}
	}
	return part{}, false
}

// numberedMeasure is numbered's text measured: every line gets its number and a tab before it, so the
// text is the content's units, and for lines start..start+L-1 their numbers' digits and a tab each.
func numberedMeasure(m measured, startLine any) part {
	lines := m.newlines + 1
	return part{units: m.units + lines + digitsIn(int64(startLineOf(startLine)), lines), text: numbered(m.start, startLine)}
}

// digitsIn is how many decimal digits the numbers from..from+count-1 are written with, in all.
func digitsIn(from, count int64) int64 {
	var total int64
	to := from + count // exclusive
	for width, low := int64(1), int64(1); low < to; width, low = width+1, low*10 {
		high := low * 10 // the numbers of this width are low..high-1
		a, b := max(from, low), min(to, high)
		if a < b {
			total += (b - a) * width
		}
		if high > to {
			break
		}
	}
	return total
}
